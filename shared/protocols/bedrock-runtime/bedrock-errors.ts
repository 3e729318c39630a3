import type { CanonicalErrorType } from '../../canonical/canonical-events.ts';
import { readErrorWords, type UpstreamErrorAnswer } from '../../transport/upstream-errors.ts';
import type { ErrorWords } from '../wire-protocol.ts';
import { awsErrorName } from '../../transport/aws-error-name.ts';

/**
 * What each of the Bedrock runtime's errors means: the HTTP status the gateway's failover and clients
 * understand, and its canonical kind. Bedrock names errors by type (`x-amzn-errortype`, or an event
 * stream's `:exception-type`), and its statuses do not always say what the gateway must do:
 * - throttling and an exceeded service quota are 429: the target cools down, the next one is tried;
 * - a model not ready (which Bedrock sends as a 429), unavailable, timed out or failing is a 5xx: the
 *   next target is tried, and a client of the last one sees a provider failure, not a rate limit;
 * - a refused signature or role is 403: the gateway's credentials, never the client's fault;
 * - a model Bedrock does not find (404: not offered in the provider's region, or an id it does not know) is
 *   a 5xx too: the model id is the gateway's configuration (the allowlist's Bedrock id), not the client's
 *   request, so the next target is tried and a client of the last one sees a provider failure;
 * - validation is the client's request.
 */
const BEDROCK_ERRORS: Readonly<Record<string, { status: number; type: CanonicalErrorType }>> = {
  ThrottlingException: { status: 429, type: 'rate-limit' },
  ServiceQuotaExceededException: { status: 429, type: 'rate-limit' },
  ModelNotReadyException: { status: 503, type: 'overloaded' },
  ServiceUnavailableException: { status: 503, type: 'overloaded' },
  InternalServerException: { status: 500, type: 'server' },
  ModelErrorException: { status: 502, type: 'server' },
  ModelStreamErrorException: { status: 502, type: 'server' },
  ModelTimeoutException: { status: 504, type: 'timeout' },
  AccessDeniedException: { status: 403, type: 'permission' },
  UnrecognizedClientException: { status: 403, type: 'authentication' },
  InvalidSignatureException: { status: 403, type: 'authentication' },
  ExpiredTokenException: { status: 403, type: 'authentication' },
  ValidationException: { status: 400, type: 'invalid-request' },
  ResourceNotFoundException: { status: 503, type: 'server' },
};

function errorNameOf(answer: UpstreamErrorAnswer): string | undefined {
  const fromBody = /"__type"\s*:\s*"([^"]+)"/.exec(answer.body)?.[1];
  return awsErrorName(answer.errorType ?? fromBody);
}

/** The answer with the status its error type means (unknown types keep the status Bedrock sent). */
export function interpretBedrockErrorAnswer(answer: UpstreamErrorAnswer): UpstreamErrorAnswer {
  const known = BEDROCK_ERRORS[errorNameOf(answer) ?? ''];
  return known && known.status !== answer.status ? { ...answer, status: known.status, sentStatus: answer.status } : answer;
}

/**
 * What a Bedrock error body (`{"message": "…"}`) says, its type from the answer's error type. A refusal of
 * the gateway's own credentials names the account and the role (`User: arn:aws:sts::…:assumed-role/…`): its
 * words are replaced, since they would reach clients whose protocol relays upstream messages.
 */
export function readBedrockErrorWords(answer: UpstreamErrorAnswer): ErrorWords {
  const name = errorNameOf(answer);
  const type = canonicalTypeOf(name, answer.status);
  const refusedCredentials = answer.status === 401 || answer.status === 403;
  const message = refusedCredentials
    ? "Bedrock refused the gateway's AWS credentials: its role (or the provider's profile) may not invoke this model in this region."
    : readErrorWords(answer.body).message.trim() || `Bedrock failed with HTTP ${answer.status}.`;
  const contextWindowExceeded = name === 'ValidationException' && CONTEXT_WINDOW_EXCEEDED.test(message);
  return { type, message, ...(name ? { code: name } : {}), ...(contextWindowExceeded ? { contextWindowExceeded } : {}) };
}

/** Bedrock's words for a prompt too long for the context window ("Input is too long for requested model."; Claude's own through InvokeModel). */
const CONTEXT_WINDOW_EXCEEDED = /input is too long for requested model|^prompt is too long\b/i;

/** The canonical kind of a Bedrock error type (a stream's exception, or an answer's), else by its status. */
export function canonicalTypeOf(name: string | undefined, status = 500): CanonicalErrorType {
  const known = BEDROCK_ERRORS[name ?? ''];
  if (known) return known.type;
  if (status === 429) return 'rate-limit';
  return status >= 400 && status < 500 ? 'invalid-request' : 'server';
}
