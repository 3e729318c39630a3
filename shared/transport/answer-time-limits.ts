import { GatewayError } from '../core/errors.ts';

/**
 * How long an upstream may take once its response head has arrived (docs/decisions/routing-and-failover.md):
 * its body must end before the request's deadline, and a relayed stream may not fall silent for longer
 * than the first-byte time-out, the longest silence allowed before the head.
 */
export interface AnswerTimeLimits {
  /** What is left of the request's deadline. */
  remainingMs: number;
  /** The longest silence between two chunks of a relayed stream. */
  idleMs: number;
}

/** The body did not end before the request's deadline. */
export function answerDeadlineError(provider: string): GatewayError {
  return new GatewayError('upstream', `Provider "${provider}" did not finish its answer within the request's deadline.`, { code: 'upstream_timeout' });
}

/** A stream fell silent for longer than the idle limit. */
export function answerIdleError(provider: string, idleMs: number): GatewayError {
  return new GatewayError('upstream', `Provider "${provider}" sent nothing for ${describeDuration(idleMs)}.`, { code: 'upstream_timeout' });
}

/** A body read whole (no chunk-by-chunk limit can watch it) against what is left of the request's deadline. */
export interface BodyDeadline {
  remainingMs: number;
  provider: string;
  /** Lets the upstream's exchange go. */
  abort(reason: unknown): void;
}

/**
 * What `reading` resolves to, unless the request's deadline comes first: then the upstream is let go and
 * the read fails with `upstream_timeout` (whatever the upstream does with its half-sent body).
 */
export async function readBeforeDeadline<T>(reading: Promise<T>, deadline: BodyDeadline): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_resolve, reject) => {
    const expire = () => {
      const error = answerDeadlineError(deadline.provider);
      deadline.abort(error);
      reject(error);
    };
    // Unref'd: the upstream's socket keeps the process alive while the body is awaited, not this timer.
    timer = setTimeout(expire, Math.max(0, deadline.remainingMs)).unref();
  });
  try {
    return await Promise.race([reading, expired]);
  } finally {
    clearTimeout(timer);
  }
}

export function describeDuration(milliseconds: number): string {
  return milliseconds < 1000 ? `${milliseconds} ms` : `${Math.round(milliseconds / 1000)} s`;
}
