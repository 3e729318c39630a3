import type { Clock } from './ports.ts';

/**
 * Remembers upstream targets that answered 429/5xx or could not be reached, so routing tries them last
 * for a short while. Per process: a shared view across instances would need a store read per request.
 */
export class CoolDown {
  private readonly until = new Map<string, number>();

  private readonly clock: Clock;
  private readonly windowMs: number;

  constructor(clock: Clock, windowMs = 30_000) {
    this.clock = clock;
    this.windowMs = windowMs;
  }

  markFailed(slug: string): void {
    this.until.set(slug, this.clock.now() + this.windowMs);
  }

  isCoolingDown(slug: string): boolean {
    const until = this.until.get(slug);
    if (until === undefined) return false;
    if (until > this.clock.now()) return true;
    this.until.delete(slug);
    return false;
  }
}
