/**
 * A server's answer that broke off before it was complete: the connection was lost, or its event stream
 * ended in the middle of an event. The server was reached, and a tool it ran may have done its work.
 */
export class CutOffAnswerError extends Error {
  override readonly name = 'CutOffAnswerError';
}

/** A server's answer to one request that held more than the bridge takes (MAX_UPSTREAM_ANSWER_BYTES); the rest was not read. */
export class AnswerTooLargeError extends Error {
  override readonly name = 'AnswerTooLargeError';
}

const MB = 1024 * 1024;

/** What an answer over the limit is said to be, the limit in MB as the gateway states its request body limit. */
export function tooLargeMessage(maxBytes: number): string {
  const limit = maxBytes % MB === 0 ? `${maxBytes / MB} MB` : `${maxBytes} bytes`;
  return `more than the ${limit} the gateway accepts in one answer`;
}

/** Why reading an answer failed mid-way, as fetch says it (`terminated: other side closed`). */
export function connectionLostMessage(error: unknown): string {
  if (!(error instanceof Error)) return `the connection was lost (${String(error)})`;
  return `the connection was lost (${error.cause instanceof Error ? `${error.message}: ${error.cause.message}` : error.message})`;
}
