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

/** A relay's watch over its time limits, told when each read of the upstream begins and ends. */
export interface TimeLimitWatch {
  /** A read of the upstream begins: the idle limit counts from here. */
  readStarted(): void;
  /** The read ended (a chunk, the end, a failure): a client reading slowly is no silent upstream. */
  readEnded(): void;
  stop(): void;
}

/**
 * Watches a body relayed chunk by chunk: the deadline runs from now, the idle limit only while a read is
 * pending (one timer, pushed back at every read: a race per read would cost more). `expire` gets the
 * error of the limit that passed; the relay lets the upstream go and ends the client's body with it.
 */
export function watchTimeLimits(limits: Partial<AnswerTimeLimits>, provider: string, expire: (error: GatewayError) => void): TimeLimitWatch {
  const { remainingMs, idleMs } = limits;
  let reading = false;
  let stopped = false;
  let idleTimer: NodeJS.Timeout | undefined;
  // Unref'd: the upstream's socket keeps the process alive while the body is relayed, not these timers.
  const deadlineTimer = remainingMs === undefined ? undefined : setTimeout(() => expire(answerDeadlineError(provider)), Math.max(0, remainingMs)).unref();
  return {
    readStarted() {
      if (idleMs !== undefined && !stopped) {
        if (idleTimer) idleTimer.refresh();
        else idleTimer = setTimeout(() => reading && expire(answerIdleError(provider, idleMs)), idleMs).unref();
      }
      reading = true;
    },
    readEnded() {
      reading = false;
    },
    stop() {
      stopped = true;
      clearTimeout(deadlineTimer);
      clearTimeout(idleTimer);
    },
  };
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

/** A time limit in words, exact: 1,500 ms is "1.5 s", not the "2 s" a rounding would tell. */
export function describeDuration(milliseconds: number): string {
  return milliseconds < 1000 ? `${milliseconds} ms` : `${Number((milliseconds / 1000).toFixed(3))} s`;
}
