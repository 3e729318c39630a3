/**
 * Checks one SSE stream of the fake upstream's shape as it arrives: events numbered by `bench_seq`
 * (0 … n, the usage chunk last) then `[DONE]`. A dropped event shows as a gap in the numbers; two events
 * merged into one (a lost blank line) show as one event with several data lines or unparsable data.
 */
export interface StreamCheck {
  /** Arrival time (ms, performance.now) of each numbered event, by bench_seq. */
  arrivals: number[];
  events: number;
  dropped: number;
  merged: number;
  outOfOrder: number;
  done: boolean;
}

export class SseChecker {
  private pending = '';
  private nextSeq = 0;
  readonly result: StreamCheck = { arrivals: [], events: 0, dropped: 0, merged: 0, outOfOrder: 0, done: false };

  push(text: string, at: number): void {
    this.pending += text;
    for (;;) {
      const end = this.pending.indexOf('\n\n');
      if (end < 0) return;
      this.onEvent(this.pending.slice(0, end), at);
      this.pending = this.pending.slice(end + 2);
    }
  }

  /** Call at the end of the stream; an unterminated rest counts as a broken (merged) event. */
  finish(): StreamCheck {
    if (this.pending.trim()) this.result.merged += 1;
    this.pending = '';
    return this.result;
  }

  private onEvent(event: string, at: number): void {
    const dataLines = event.split('\n').filter((line) => line.startsWith('data:'));
    if (dataLines.length === 0) return; // a comment (heartbeat) or a field-only event
    this.result.events += 1;
    if (dataLines.length > 1) {
      this.result.merged += 1;
      return;
    }
    const data = (dataLines[0] ?? '').slice(5).trim();
    if (data === '[DONE]') {
      this.result.done = true;
      return;
    }
    let seq: unknown;
    try {
      seq = (JSON.parse(data) as { bench_seq?: unknown }).bench_seq;
    } catch {
      this.result.merged += 1;
      return;
    }
    if (typeof seq !== 'number') return;
    if (seq < this.nextSeq) this.result.outOfOrder += 1;
    else {
      this.result.dropped += seq - this.nextSeq;
      this.nextSeq = seq + 1;
    }
    this.result.arrivals[seq] = at;
  }

  /** Numbered events the stream should have had but never showed (checked against the expected count). */
  missing(expectedNumbered: number): number {
    return Math.max(0, expectedNumbered - this.nextSeq);
  }
}
