import { spawn } from 'node:child_process';
import { STREAM_EVENTS } from './upstream-shape.ts';
import { chatBody, type Target } from './http-load.ts';
import { NODE, PROJECT_ROOT } from './processes.ts';
import { targetCpuMs, type MeasuredTarget } from './services.ts';
import { rotate, summarize, type Summary } from './stats.ts';

/** What one run of bench/stream-load.ts prints. */
export interface StreamLoadResult {
  completed: number;
  failed: number;
  events: number;
  dropped: number;
  merged: number;
  outOfOrder: number;
  missingDone: number;
  streams: number;
  maxOpen: number;
  elapsedMs: number;
  ttfb: { p50: number; p99: number; max: number; count: number };
  gap: { p50: number; p99: number; max: number; count: number };
  failures: string[];
}

export interface StreamRunSpec {
  streams: number;
  concurrency: number;
  staggerMs: number;
  skipFirst: boolean;
  /** Chunk events per stream (the upstream's default unless given). */
  events?: number;
}

/**
 * Runs the stream load generator (a process of its own) against a target; `onAllOpen` fires once every
 * stream is open at once, `onClosing` when the first of them has ended.
 */
export function runStreamLoad(target: Target, spec: StreamRunSpec, onAllOpen?: () => void, onClosing?: () => void): Promise<StreamLoadResult> {
  const events = spec.events ?? STREAM_EVENTS;
  const body = JSON.parse(chatBody(target.model, true)) as Record<string, unknown>;
  if (events !== STREAM_EVENTS) body.bench_events = events;
  const payload = {
    url: `${target.url}/v1/chat/completions`,
    headers: target.headers,
    body: JSON.stringify(body),
    ...spec,
    expectedNumbered: events + 1,
    chunkEvents: events,
    announceOpen: onAllOpen !== undefined,
  };
  return new Promise((resolve, reject) => {
    const child = spawn(NODE, ['bench/stream-load.ts', JSON.stringify(payload)], { cwd: PROJECT_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      if (onAllOpen && stdout.includes('all-open\n')) {
        const callback = onAllOpen;
        onAllOpen = undefined;
        callback();
      }
      if (onClosing && stdout.includes('closing\n')) {
        const callback = onClosing;
        onClosing = undefined;
        callback();
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.once('error', reject);
    child.once('exit', (code) => {
      const line = stdout.trim().split('\n').at(-1) ?? '';
      if (code !== 0 || !line.startsWith('{')) return reject(new Error(`stream load failed (${code}): ${stderr.slice(-1500)}`));
      resolve(JSON.parse(line) as StreamLoadResult);
    });
  });
}

export interface StreamTargetFigures {
  target: string;
  ttfbP50Ms: Summary;
  ttfbP99Ms: Summary;
  gapP50Ms: Summary;
  gapP99Ms: Summary;
  addedTtfbP50Ms: Summary;
  addedTtfbP99Ms: Summary;
  addedGapP50Ms: Summary;
  addedGapP99Ms: Summary;
  streams: number;
  completed: number;
  failed: number;
  dropped: number;
  merged: number;
  outOfOrder: number;
  missingDone: number;
  /** CPU time the system under test used per stream (ms; includes the gateway's usage writer). */
  cpuMsPerStream: Summary;
  failures: string[];
}

export interface StreamPhaseOptions {
  spec: StreamRunSpec;
  rounds: number;
  focus(target: MeasuredTarget | undefined): void;
  log(line: string): void;
}

/** Streams through each target in rotating order, round after round; figures against direct's in the same round. */
export async function runStreamPhase(targets: MeasuredTarget[], options: StreamPhaseOptions): Promise<StreamTargetFigures[]> {
  const runs = new Map<string, StreamLoadResult[]>(targets.map((target) => [target.name, []]));
  const cpu = new Map<string, number[]>(targets.map((target) => [target.name, []]));
  for (let round = 0; round < options.rounds; round += 1) {
    for (const target of rotate(targets, round)) {
      options.focus(target);
      const cpuBefore = await targetCpuMs(target);
      const result = await runStreamLoad(target, options.spec);
      const cpuAfter = await targetCpuMs(target);
      cpu.get(target.name)?.push(cpuBefore === undefined || cpuAfter === undefined ? Number.NaN : (cpuAfter.requestPath - cpuBefore.requestPath) / result.streams);
      runs.get(target.name)?.push(result);
      options.log(
        `  streams x${options.spec.concurrency} round ${round + 1}/${options.rounds} ${target.name.padEnd(24)} TTFB p50 ${result.ttfb.p50.toFixed(2)} p99 ${result.ttfb.p99.toFixed(2)} ms  gap p50 ${result.gap.p50.toFixed(2)} p99 ${result.gap.p99.toFixed(2)} ms  ${result.completed}/${result.streams} ok, ${result.dropped} dropped, ${result.merged} merged`,
      );
    }
  }
  options.focus(undefined);
  const directRuns = runs.get(targets[0]?.name ?? '') ?? [];
  const against = (values: number[], pick: (run: StreamLoadResult) => number) => values.map((value, round) => value - (directRuns[round] ? pick(directRuns[round]) : Number.NaN));
  return targets.map((target) => {
    const own = runs.get(target.name) ?? [];
    const pick = (read: (run: StreamLoadResult) => number) => own.map(read);
    const sum = (read: (run: StreamLoadResult) => number) => own.reduce((total, run) => total + read(run), 0);
    return {
      target: target.name,
      ttfbP50Ms: summarize(pick((run) => run.ttfb.p50)),
      ttfbP99Ms: summarize(pick((run) => run.ttfb.p99)),
      gapP50Ms: summarize(pick((run) => run.gap.p50)),
      gapP99Ms: summarize(pick((run) => run.gap.p99)),
      addedTtfbP50Ms: summarize(against(pick((run) => run.ttfb.p50), (run) => run.ttfb.p50)),
      addedTtfbP99Ms: summarize(against(pick((run) => run.ttfb.p99), (run) => run.ttfb.p99)),
      addedGapP50Ms: summarize(against(pick((run) => run.gap.p50), (run) => run.gap.p50)),
      addedGapP99Ms: summarize(against(pick((run) => run.gap.p99), (run) => run.gap.p99)),
      streams: sum((run) => run.streams),
      completed: sum((run) => run.completed),
      failed: sum((run) => run.failed),
      dropped: sum((run) => run.dropped),
      merged: sum((run) => run.merged),
      outOfOrder: sum((run) => run.outOfOrder),
      missingDone: sum((run) => run.missingDone),
      cpuMsPerStream: summarize(cpu.get(target.name) ?? []),
      failures: own.flatMap((run) => run.failures).slice(0, 5),
    };
  });
}
