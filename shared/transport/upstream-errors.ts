import { GatewayError } from '../core/errors.ts';
import { MIN_SECRET_LENGTH } from '../core/header-secrets.ts';
import { asJsonObject, parseJsonObject } from '../core/json-object.ts';
import { errorTextExcerpt } from './error-text-excerpt.ts';
import { readTextPrefix } from './read-text-prefix.ts';

/** The most of an upstream's error answer the gateway reads: its message is shown cut to 500 characters. */
export const MAX_ERROR_BODY_BYTES = 64 * 1024;
const MAX_MESSAGE_LENGTH = 500;

/** An upstream's error answer as read once: status, Retry-After and the body (bounded, provider key removed). */
export interface UpstreamErrorAnswer {
  status: number;
  retryAfter: string | null;
  contentType: string | null;
  /**
   * A JSON object as sent; any other body (a proxy's HTML page, plain text, nothing) only as its short
   * excerpt (error-text-excerpt.ts): no protocol's error, so the client gets its own protocol's (upstream-refusal.ts).
   */
  body: string;
  /** The error's name where an AWS service gives it in `x-amzn-errortype` (Bedrock: `ThrottlingException:…`). */
  errorType?: string;
  /** The status the upstream sent, when its error type means another (`status`): messages quote what it sent. */
  sentStatus?: number;
}

export async function readUpstreamErrorAnswer(response: Response, apiKey: string | undefined): Promise<UpstreamErrorAnswer> {
  // Its first 64 KB only, the rest unread: an upstream's error page can be of any size.
  const text = redactSecrets(await readTextPrefix(response.body, MAX_ERROR_BODY_BYTES), apiKey);
  const contentType = response.headers.get('content-type');
  const errorType = response.headers.get('x-amzn-errortype');
  return {
    status: response.status,
    retryAfter: response.headers.get('retry-after'),
    contentType,
    // Redacted again once tags and entities are gone: `sk&#45;…` is a key only then.
    body: isJsonErrorBody(text) ? text : redactSecrets(errorTextExcerpt(text, contentType), apiKey),
    ...(errorType ? { errorType } : {}),
  };
}

/** Whether an error body is JSON, which some protocol's reader may understand; anything else is only text. */
export function isJsonErrorBody(body: string): boolean {
  return parseJsonObject(body) !== undefined;
}

/** What an error body says, in either protocol's shape: `{error: {type, code, message}}`, `{error: "…"}` or `{message}`. */
export interface ErrorWords {
  type: string | undefined;
  code: string | undefined;
  /** The request field at fault, when the body names one (OpenAI's `param`). */
  param?: string;
  /** The message, or the whole text when the body is not a recognised error. */
  message: string;
}

/** The message of an error payload's `error`: `{"error": {"message": …}}` or `{"error": "…"}`. */
export function errorMessageOf(payload: Record<string, unknown> | undefined): string | undefined {
  const error = payload?.error;
  const message = typeof error === 'string' ? error : asJsonObject(error)?.message;
  return typeof message === 'string' ? message : undefined;
}

export function readErrorWords(body: string): ErrorWords {
  const payload = parseJsonObject(body);
  const detail = asJsonObject(payload?.error);
  const message = errorMessageOf(payload) ?? (typeof payload?.message === 'string' ? payload.message : body);
  return {
    type: typeof detail?.type === 'string' ? detail.type : undefined,
    code: typeof detail?.code === 'string' ? detail.code : undefined,
    ...(typeof detail?.param === 'string' ? { param: detail.param } : {}),
    message,
  };
}

/** The message of an upstream error body, bounded. */
export function upstreamErrorMessage(answer: UpstreamErrorAnswer): string {
  return readErrorWords(answer.body).message.trim().slice(0, MAX_MESSAGE_LENGTH) || `HTTP ${answer.status}`;
}

/** An upstream's own message as a client may see it: credentials removed, bounded. */
export function scrubUpstreamMessage(message: string, apiKey: string | undefined): string {
  return redactSecrets(message, apiKey).trim().slice(0, MAX_MESSAGE_LENGTH);
}

/** Reads an upstream error body, bounded, and tells its message apart from the rest. */
export async function readUpstreamErrorMessage(response: Response, apiKey: string | undefined): Promise<string> {
  return upstreamErrorMessage(await readUpstreamErrorAnswer(response, apiKey));
}

/**
 * Replaces every occurrence of each secret with `[redacted]`, the longest first, so that a secret holding
 * another (`Bearer x` and `x`) goes whole. Empty secrets are ignored.
 */
export function redactKnownSecrets(text: string, secrets: readonly string[]): string {
  return secrets
    .filter((secret) => secret.length > 0)
    .sort((a, b) => b.length - a.length)
    .reduce((redacted, secret) => redacted.split(secret).join('[redacted]'), text);
}

/**
 * The same in the other forms an error may quote a secret in: every letter case (a server that shouts it
 * back), base64-encoded (a server echoing a header or a body it encoded). For error words only: in an
 * answer, the model's text is passed as written but for the exact key (withoutProviderKey).
 */
function redactSecretForms(text: string, secrets: readonly string[]): string {
  return secrets.reduce((redacted, secret) => {
    const anyCase = redacted.replace(new RegExp(secret.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'gi'), '[redacted]');
    return base64Forms(secret).reduce((scrubbed, form) => scrubbed.split(form).join('[redacted]'), anyCase);
  }, text);
}

/** Shorter base64 runs are not looked for: they could be anything's. */
const SHORTEST_ENCODED_SECRET = 12;

/**
 * The base64 text a secret shows as wherever it stands in encoded data: at each of the three byte offsets
 * a base64 group can start at, the characters its bytes alone decide (those that mix in its neighbours'
 * bits are left off), in both alphabets.
 */
function base64Forms(secret: string): string[] {
  const bytes = Buffer.byteLength(secret);
  const forms: string[] = [];
  for (const offset of [0, 1, 2]) {
    const encoded = Buffer.concat([Buffer.alloc(offset), Buffer.from(secret)]).toString('base64');
    const core = encoded.slice(Math.ceil((8 * offset) / 6), Math.floor((8 * (offset + bytes)) / 6));
    if (core.length >= SHORTEST_ENCODED_SECRET) forms.push(core, core.replaceAll('+', '-').replaceAll('/', '_'));
  }
  return [...new Set(forms)];
}

/**
 * Keys shorter than this are not looked for in answers: a local server's placeholder key (`local`,
 * `EMPTY`, `ollama`) is a word a model writes (`localhost`), and a provider's real keys are far longer.
 */
const SHORTEST_KEY_IN_ANSWERS = 16;

/**
 * An answer's text without the provider key it echoes: a provider's error event inside a 200 stream, or a
 * body quoting the request it was sent. Only the exact key, and only a key long enough to be a secret: the
 * rest is the model's answer, passed as written.
 */
export function withoutProviderKey(text: string, apiKey: string | undefined): string {
  return apiKey && apiKey.length >= SHORTEST_KEY_IN_ANSWERS && text.includes(apiKey) ? redactKnownSecrets(text, [apiKey]) : text;
}

/** A provider key's usual shapes, and an AWS access key id (long-term `AKIA…`, temporary `ASIA…`) or SigV4 signature a Bedrock error may quote. */
const SECRET_SHAPES = /\b(?:sk|xai|gsk|pk)[-_][A-Za-z0-9_*-]{8,}|\bA[KS]IA[A-Z0-9]{16}\b|\bSignature=[0-9a-f]{64}\b/g;

/**
 * Credentials must never reach a client, not even inside an upstream's own error message: the given ones
 * (a provider key, an MCP server's header secrets) and anything shaped like a provider key or an AWS
 * credential's id or signature (which name the gateway's role; the secret key itself is never sent).
 */
export function redactSecrets(text: string, secrets: string | readonly string[] | undefined): string {
  const given = secrets === undefined ? [] : typeof secrets === 'string' ? [secrets] : secrets;
  // A placeholder key (`x`, `local`) is no secret, and looked for it would cut into the words of every error
  // (`conte[redacted]t_length_e[redacted]ceeded`), codes clients branch on included.
  const known = given.filter((secret) => secret.length >= MIN_SECRET_LENGTH);
  return redactSecretForms(redactKnownSecrets(text, known), known).replace(SECRET_SHAPES, '[redacted]');
}

/**
 * An upstream 401 or 403: the provider refused the gateway's credential for it, which is never the client's
 * fault. Its words are never shown to clients: they may echo the key, and they read as the client's own key
 * being refused (Claude Code would ask its user to log in again).
 */
export function isCredentialRefusal(status: number): boolean {
  return status === 401 || status === 403;
}

/**
 * Upstream statuses that are the gateway's problem (or the provider's), not the client's request. A
 * redirect is one too: a provider's API does not redirect, so its base URL is wrong (or being tampered with).
 * So is a 408: the gateway sends its request whole and at once, so a provider that timed out was slow itself
 * (as Bedrock's ModelTimeoutException, sent as 408); relayed, it would tell the client its own request was slow.
 */
export function isGatewaySideUpstreamStatus(status: number): boolean {
  return (status >= 300 && status < 400) || isCredentialRefusal(status) || status === 408 || status === 429 || status >= 500;
}

/**
 * Maps an upstream failure the client cannot fix by changing its request: a rejected credential or an
 * upstream 5xx → 502, an upstream 429 → 429 keeping `Retry-After`. Messages name the provider.
 */
export async function upstreamFailureToGatewayError(
  response: Response,
  provider: string,
  apiKey: string | undefined,
): Promise<GatewayError> {
  return upstreamAnswerToGatewayError(await readUpstreamErrorAnswer(response, apiKey), provider);
}

/** OpenAI's 429 of an account without quota (`insufficient_quota`, as its type or its code), unlike a rate limit that passes. */
export function isQuotaExhausted(answer: UpstreamErrorAnswer): boolean {
  const { type, code } = readErrorWords(answer.body);
  return type === 'insufficient_quota' || code === 'insufficient_quota';
}

/**
 * How the gateway authorizes its calls to the provider, for the remedy a refusal names: a stored key, or a
 * signature made with the gateway's own AWS credentials.
 */
export type CredentialKind = 'key' | 'aws';

/** The gateway's own words for a provider that refused the project's stored key (`provider` when known). */
export function credentialRefused(status: number, provider?: string): GatewayError {
  const who = provider === undefined ? 'The provider' : `Provider "${provider}"`;
  return new GatewayError('upstream', `${who} rejected the project's credential (HTTP ${status}). An administrator must update it with "provider set".`, {
    code: 'provider_auth_failed',
  });
}

export function upstreamAnswerToGatewayError(answer: UpstreamErrorAnswer, provider: string, credential: CredentialKind = 'key'): GatewayError {
  if (isCredentialRefusal(answer.status) && credential === 'aws') {
    // The upstream's own words name the role and the account: kept for the logs (cause), not shown to clients.
    return new GatewayError(
      'upstream',
      `Provider "${provider}" refused the gateway's AWS credentials (HTTP ${answer.status}). An administrator must allow the gateway's role (or the provider's profile) to invoke this model in the provider's region: see the deployment's bedrock setting.`,
      { code: 'provider_auth_failed', cause: upstreamErrorMessage(answer) },
    );
  }
  if (isCredentialRefusal(answer.status)) return credentialRefused(answer.status, provider);
  if (answer.status >= 300 && answer.status < 400) {
    return new GatewayError('upstream', `Provider "${provider}" answered with a redirect (HTTP ${answer.status}); check its base URL.`, {
      code: 'upstream_redirected',
    });
  }
  const message = upstreamErrorMessage(answer);
  if (answer.status === 408) {
    return new GatewayError('upstream', `Provider "${provider}" timed out (HTTP 408): ${message}`, { code: 'upstream_timeout' });
  }
  if (answer.status === 429 && isQuotaExhausted(answer)) {
    // Waiting does not help: no Retry-After, and `x-should-retry: false`, which the OpenAI and Anthropic SDKs
    // obey instead of retrying a 429; OpenAI's type, which clients branch on, and the gateway's code for it.
    return new GatewayError('payment_required', `Provider "${provider}" has no quota left (an administrator must top up the provider account or change the project's provider key): ${message}`, {
      code: 'upstream_insufficient_quota',
      status: 429,
      headers: { 'x-should-retry': 'false' },
    });
  }
  if (answer.status === 429) {
    return new GatewayError('rate_limited', `Provider "${provider}" is rate limiting requests: ${message}`, {
      code: 'upstream_rate_limited',
      headers: answer.retryAfter ? { 'retry-after': answer.retryAfter } : {},
    });
  }
  return new GatewayError('upstream', `Provider "${provider}" failed with HTTP ${answer.sentStatus ?? answer.status}: ${message}`, {
    code: 'upstream_error',
  });
}
