import { runLoad, type LoadRun } from './http-load.ts';
import { targetCpuMs, type MeasuredTarget } from './services.ts';
import { percentile, rotate, summarize, type Summary } from './stats.ts';

export interface HttpTargetFigures {
  target: string;
  /** Per round, then summarized: the target's own figure. */
  p50Ms: Summary;
  p99Ms: Summary;
  throughput: Summary;
  /** Against direct in the same round: latency added (ms), throughput as a share of direct's. */
  addedP50Ms: Summary;
  addedP99Ms: Summary;
  throughputRatio: Summary;
  /** CPU time the system under test used per request on its request path (µs; the gateway's store and writer apart). */
  cpuUsPerRequest: Summary;
  /** The gateway's backend process (embedded store and usage writer, elsewhere in AWS): CPU µs per request. */
  backendCpuUsPerRequest: Summary;
  requests: number;
  /** Requests sent in the warm-up too (each left a usage record at the gateway). */
  allRequests: number;
  non2xx: number;
  errors: number;
}

export interface HttpPhaseOptions {
  connections: number;
  seconds: number;
  rounds: number;
  warmupSeconds: number;
  focus(target: MeasuredTarget | undefined): void;
  log(line: string): void;
}

/**
 * Non-streaming chat at one concurrency: a warm-up per target, then `rounds` rounds in which every target
 * (direct first in round 1, then rotating) runs for `seconds`; each round's figures are taken against
 * direct's in the same round, so drift of the machine cancels out. Only the measured target runs.
 */
export async function runHttpPhase(targets: MeasuredTarget[], options: HttpPhaseOptions): Promise<HttpTargetFigures[]> {
  const direct = targets[0];
  if (!direct) throw new Error('no targets');
  const cpu = new Map<string, number[]>(targets.map((target) => [target.name, []]));
  const backendCpu = new Map<string, number[]>(targets.map((target) => [target.name, []]));
  const sent = new Map<string, number>();
  const measure = async (target: MeasuredTarget, seconds: number): Promise<LoadRun> => {
    options.focus(target);
    const before = await targetCpuMs(target);
    const run = await runLoad(target, options.connections, seconds);
    sent.set(target.name, (sent.get(target.name) ?? 0) + run.requests);
    const after = await targetCpuMs(target);
    const perRequest = (used: number | undefined) => (used === undefined ? Number.NaN : (used * 1000) / Math.max(1, run.requests));
    cpu.get(target.name)?.push(perRequest(after && before && after.requestPath - before.requestPath));
    backendCpu.get(target.name)?.push(perRequest(after && before && after.backend - before.backend));
    return run;
  };
  // Quick mode skips the warm-up at c=64: the c=1 phase has warmed every target already.
  if (options.warmupSeconds > 0) for (const target of targets) await measure(target, options.warmupSeconds);
  for (const samples of [...cpu.values(), ...backendCpu.values()]) samples.length = 0;
  const perRound = new Map<string, LoadRun[]>(targets.map((target) => [target.name, []]));
  for (let round = 0; round < options.rounds; round += 1) {
    for (const target of rotate(targets, round)) {
      const run = await measure(target, options.seconds);
      perRound.get(target.name)?.push(run);
      options.log(`  c=${options.connections} round ${round + 1}/${options.rounds} ${target.name.padEnd(24)} ${run.throughput.toFixed(0).padStart(6)} req/s  p50 ${percentile(run.latencies, 50).toFixed(3)} ms  p99 ${percentile(run.latencies, 99).toFixed(3)} ms${run.non2xx + run.errors ? `  (${run.non2xx} non-2xx, ${run.errors} errors)` : ''}`);
    }
  }
  options.focus(undefined);
  const directRuns = perRound.get(direct.name) ?? [];
  return targets.map((target) => {
    const runs = perRound.get(target.name) ?? [];
    const p50 = runs.map((run) => percentile(run.latencies, 50));
    const p99 = runs.map((run) => percentile(run.latencies, 99));
    const directP50 = directRuns.map((run) => percentile(run.latencies, 50));
    const directP99 = directRuns.map((run) => percentile(run.latencies, 99));
    return {
      target: target.name,
      p50Ms: summarize(p50),
      p99Ms: summarize(p99),
      throughput: summarize(runs.map((run) => run.throughput)),
      addedP50Ms: summarize(p50.map((value, round) => value - (directP50[round] ?? Number.NaN))),
      addedP99Ms: summarize(p99.map((value, round) => value - (directP99[round] ?? Number.NaN))),
      throughputRatio: summarize(runs.map((run, round) => run.throughput / (directRuns[round]?.throughput ?? Number.NaN))),
      cpuUsPerRequest: summarize(cpu.get(target.name) ?? []),
      backendCpuUsPerRequest: summarize(backendCpu.get(target.name) ?? []),
      requests: runs.reduce((sum, run) => sum + run.requests, 0),
      allRequests: sent.get(target.name) ?? 0,
      non2xx: runs.reduce((sum, run) => sum + run.non2xx, 0),
      errors: runs.reduce((sum, run) => sum + run.errors, 0),
    };
  });
}
