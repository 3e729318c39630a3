import { heapAfterGc, type BenchGateway, type HeapFigures } from './gateway.ts';
import type { Target } from './http-load.ts';
import { residentKiB, sleep } from './processes.ts';
import { summarize, type Summary } from './stats.ts';
import { runStreamLoad } from './stream-phase.ts';
import { EVENT_GAP_MS } from './upstream-shape.ts';

/** The gateway's memory at one moment: resident set, and what the heap holds after a full collection. */
export interface MemoryReading {
  rssKiB: number | undefined;
  /** V8 heap in use plus memory outside it (buffers), after a full GC: what is really retained. */
  retainedKiB: number | undefined;
}

export interface MemoryRound {
  openStreams: number;
  before: MemoryReading;
  /** RSS: the highest seen while all streams were open; retained: measured once, all streams open. */
  open: MemoryReading;
  faults: number;
}

export interface GatewayMemory {
  idle: MemoryReading;
  rounds: MemoryRound[];
  /** (open − before) / open streams, per round. */
  perStreamRssKiB: Summary;
  perStreamRetainedKiB: Summary;
  /** After the memory rounds, once their usage records were written. */
  afterStreams: MemoryReading;
  /** At the very end, after the non-streaming load too (its usage backlog may still be queued in memory). */
  afterAll: MemoryReading;
}

const retained = (heap: HeapFigures | undefined) => (heap?.collected ? (heap.heapUsed + heap.external) / 1024 : undefined);

export async function readMemory(gateway: BenchGateway): Promise<MemoryReading> {
  const rssKiB = await residentKiB(gateway.service.pid);
  return { rssKiB, retainedKiB: retained(await heapAfterGc(gateway)) };
}

/**
 * Opens `streams` streams through the gateway at once, long enough (`events` events) that all are open
 * together, and reads its memory then: RSS sampled throughout, the heap after a full GC once. A round of
 * its own, as the forced GC would disturb the timing rounds.
 */
export async function measureOpenStreams(gateway: BenchGateway, target: Target, streams: number, events: number): Promise<MemoryRound> {
  const before = await readMemory(gateway);
  let peakRss = 0;
  let retainedOpen: number | undefined;
  const status: { state: 'waiting' | 'open' | 'done' } = { state: 'waiting' };
  let heapRead: Promise<void> | undefined;
  const sampler = (async () => {
    while (status.state !== 'done') {
      if (status.state === 'open') peakRss = Math.max(peakRss, (await residentKiB(gateway.service.pid)) ?? 0);
      await sleep(EVENT_GAP_MS);
    }
  })();
  const result = await runStreamLoad(
    target,
    { streams, concurrency: streams, staggerMs: 0, skipFirst: false, events },
    () => {
      status.state = 'open';
      heapRead = heapAfterGc(gateway).then((heap) => void (retainedOpen = retained(heap)));
    },
    () => {
      if (status.state === 'open') status.state = 'waiting';
    },
  ).finally(() => (status.state = 'done'));
  await sampler;
  await heapRead;
  return {
    openStreams: result.maxOpen,
    before,
    open: { rssKiB: peakRss || undefined, retainedKiB: retainedOpen },
    faults: result.failed + result.dropped + result.merged + result.outOfOrder + result.missingDone,
  };
}

export function perStream(rounds: MemoryRound[], read: (reading: MemoryReading) => number | undefined): Summary {
  return summarize(rounds.map((round) => ((read(round.open) ?? Number.NaN) - (read(round.before) ?? Number.NaN)) / Math.max(1, round.openStreams)));
}
