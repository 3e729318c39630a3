import { percentile } from './lib/stats.ts';
import { SseChecker } from './lib/sse-check.ts';

/**
 * The streaming load generator, a process of its own: `node bench/stream-load.ts '<json spec>'`. Runs
 * `streams` chat streams through `concurrency` workers (each starts after `staggerMs` × its index, so
 * streams do not all begin at once unless asked), checks each stream's events, and prints one JSON line.
 * With `announceOpen`, prints "all-open" the first time every worker's stream is open at once (first
 * event in, not yet ended), then "closing" when the first of them ends.
 */
interface Spec {
  url: string;
  headers: Record<string, string>;
  body: string;
  streams: number;
  concurrency: number;
  staggerMs: number;
  /** Numbered events per stream (chunk events plus the usage chunk). */
  expectedNumbered: number;
  /** Chunk events: gaps are taken between these (the usage chunk and [DONE] follow the last at once). */
  chunkEvents: number;
  announceOpen?: boolean;
  /** Leaves each worker's first stream out of the figures (it opens the connection). */
  skipFirst?: boolean;
}

const spec = JSON.parse(process.argv[2] ?? '{}') as Spec;
const ttfbs: number[] = [];
const gaps: number[] = [];
const totals = { completed: 0, failed: 0, events: 0, dropped: 0, merged: 0, outOfOrder: 0, missingDone: 0 };
const failures: string[] = [];
let openNow = 0;
let maxOpen = 0;
let announced: 'no' | 'open' | 'closing' = 'no';

function onFirstEvent(): void {
  openNow += 1;
  maxOpen = Math.max(maxOpen, openNow);
  if (spec.announceOpen && announced === 'no' && openNow >= spec.concurrency) {
    announced = 'open';
    console.log('all-open');
  }
}

function onStreamEnd(): void {
  openNow -= 1;
  if (announced === 'open') {
    announced = 'closing';
    console.log('closing');
  }
}

async function oneStream(recorded: boolean): Promise<void> {
  const started = performance.now();
  const response = await fetch(spec.url, { method: 'POST', headers: { 'content-type': 'application/json', ...spec.headers }, body: spec.body });
  if (response.status !== 200 || !response.body) {
    totals.failed += 1;
    failures.push(`HTTP ${response.status}: ${(await response.text()).slice(0, 200)}`);
    return;
  }
  const checker = new SseChecker();
  const decoder = new TextDecoder();
  let first = true;
  try {
    for await (const chunk of response.body) {
      const at = performance.now();
      if (first) {
        first = false;
        if (recorded) ttfbs.push(at - started);
        onFirstEvent();
      }
      checker.push(decoder.decode(chunk, { stream: true }), at);
    }
  } finally {
    if (!first) onStreamEnd();
  }
  const check = checker.finish();
  totals.completed += 1;
  totals.events += check.events;
  totals.dropped += check.dropped + checker.missing(spec.expectedNumbered);
  totals.merged += check.merged;
  totals.outOfOrder += check.outOfOrder;
  if (!check.done) totals.missingDone += 1;
  for (let seq = 1; recorded && seq < spec.chunkEvents; seq += 1) {
    const previous = check.arrivals[seq - 1];
    const current = check.arrivals[seq];
    if (previous !== undefined && current !== undefined) gaps.push(current - previous);
  }
}

async function worker(index: number, count: number): Promise<void> {
  if (spec.skipFirst) count += 1;
  await new Promise((resolve) => setTimeout(resolve, index * spec.staggerMs));
  for (let i = 0; i < count; i += 1) {
    try {
      await oneStream(!(spec.skipFirst && i === 0));
    } catch (error) {
      totals.failed += 1;
      failures.push(error instanceof Error ? `${error.message} ${String(error.cause ?? '')}` : String(error));
    }
  }
}

const perWorker = Array.from({ length: spec.concurrency }, (_, index) => Math.floor(spec.streams / spec.concurrency) + (index < spec.streams % spec.concurrency ? 1 : 0));
const startedAt = performance.now();
await Promise.all(perWorker.map((count, index) => worker(index, count)));
const summary = (values: number[]) => ({ p50: percentile(values, 50), p99: percentile(values, 99), max: values.length ? Math.max(...values) : Number.NaN, count: values.length });
console.log(
  JSON.stringify({
    ...totals,
    streams: totals.completed + totals.failed,
    maxOpen,
    elapsedMs: performance.now() - startedAt,
    ttfb: summary(ttfbs),
    gap: summary(gaps),
    failures: failures.slice(0, 5),
  }),
);
