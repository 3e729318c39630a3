import { GatewayError } from '../core/errors.ts';
import type { TokenUsage } from '../core/token-usage.ts';
import { errorMessageOf, scrubUpstreamMessage } from '../transport/upstream-errors.ts';

const INVALID_ANSWER = 'upstream_invalid_response';

/**
 * A 200 whose body is no answer of the upstream's protocol: not JSON (a proxy's HTML page), or not the
 * protocol's answer (an error object in its place). An upstream failure, and nothing has reached the client,
 * so failover moves on from it as from a 5xx. The upstream's own words, when its error object has them, are
 * kept (credentials removed). Readers that find no answer throw the same code.
 */
export function invalidAnswer(provider: string, payload: Record<string, unknown> | undefined, apiKey: string | undefined): GatewayError {
  if (!payload) return new GatewayError('upstream', `Provider "${provider}" answered with a body that is not JSON.`, { code: INVALID_ANSWER });
  const words = errorMessageOf(payload)?.trim();
  const message = words
    ? `Provider "${provider}" answered with an error instead of an answer: ${scrubUpstreamMessage(words, apiKey)}`
    : `Provider "${provider}" answered with a body that is not an answer of its protocol.`;
  return new GatewayError('upstream', message, { code: INVALID_ANSWER });
}

/**
 * A 200 whose answer the upstream itself ended as failed (Bedrock's `malformed_model_output`, chat's
 * `finish_reason: "error"`): no answer to translate, so failover moves on as from any 200 without one, but
 * the upstream generated and bills the tokens it counted (`billedUsage`).
 */
export class FailedAnswerError extends GatewayError {
  readonly billedUsage: TokenUsage;

  constructor(provider: string, rawFinish: string | undefined, billedUsage: TokenUsage) {
    super('upstream', failedAnswerMessage(provider, rawFinish), { code: INVALID_ANSWER });
    this.billedUsage = billedUsage;
  }
}

/** What a client is told of an answer its upstream ended as failed, whole or streamed. */
export function failedAnswerMessage(provider: string, rawFinish: string | undefined): string {
  return `Provider "${provider}" ended its answer as failed${rawFinish ? ` (${rawFinish})` : ''}.`;
}

/** A JSON answer whose body broke off while the gateway read it whole, before any byte went to the client. */
export function brokenOffAnswer(provider: string, cause: unknown): GatewayError {
  return new GatewayError('upstream', `Provider "${provider}" broke off the response.`, { code: BROKEN_OFF, cause });
}

const BROKEN_OFF = 'upstream_stream_interrupted';

/**
 * Whether a failure of reading an answer whole leaves it to another target (failover.ts): a 200 that held
 * no answer, or one whose body broke off; nothing reached the client yet.
 */
export function isUnusableAnswer(error: unknown): error is GatewayError {
  return error instanceof GatewayError && (error.code === INVALID_ANSWER || error.code === BROKEN_OFF);
}

/** The tokens a failed answer's upstream billed (FailedAnswerError), else undefined. */
export function billedUsageOf(error: unknown): TokenUsage | undefined {
  return error instanceof FailedAnswerError ? error.billedUsage : undefined;
}
