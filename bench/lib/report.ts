import type { ColdStartFigure } from './cold-start.ts';
import type { HttpTargetFigures } from './http-phase.ts';
import type { BenchResults, TargetCheck } from './results.ts';
import { formatSummary, type Summary } from './stats.ts';

const ms = (summary: Summary | undefined) => formatSummary(summary, 3, '');
const pct = (summary: Summary | undefined) =>
  summary && Number.isFinite(summary.median) ? `${(summary.median * 100).toFixed(0)}% (${(summary.min * 100).toFixed(0)}–${(summary.max * 100).toFixed(0)})` : 'n/a';
const kib = (value: number | undefined) => (value === undefined || !Number.isFinite(value) ? 'n/a' : `${(value / 1024).toFixed(1)} MiB`);

function table(headers: string[], rows: string[][]): string {
  const widths = headers.map((header, column) => Math.max(header.length, ...rows.map((row) => (row[column] ?? '').length)));
  const line = (cells: string[]) => `| ${cells.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join(' | ')} |`;
  return [line(headers), `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`, ...rows.map(line)].join('\n');
}

const find = (figures: HttpTargetFigures[], name: string) => figures.find((figure) => figure.target === name);

/** The readable report: one table per measurement, then the targets. Markdown tables, so the doc can quote them. */
export function renderReport(results: BenchResults): string {
  const out: string[] = [];
  const { nonStreaming, streaming, memory } = results;
  out.push(`Gateway bench (${results.mode}), ${results.generatedAt}, ${results.durationSeconds.toFixed(0)} s — ${results.machine.cpus} × ${results.machine.cpuModel}, Node ${results.machine.node}; ${results.machine.pinning}`);
  for (const note of results.notes) out.push(`note: ${note}`);
  out.push('', `Non-streaming chat (median of ${nonStreaming.rounds} rounds × ${nonStreaming.seconds} s, spread = lowest–highest round; "added" is against direct in the same round)`);
  out.push(
    table(
      ['target', 'c=1 p50 ms', 'c=1 p99 ms', 'added p50 ms', 'added p99 ms', 'c=64 req/s', 'c=64 vs direct', 'c=64 vs pipe', 'CPU µs/req c=1 / c=64', 'store + writer µs/req c=1'],
      nonStreaming.concurrency1.map((c1) => {
        const c64 = find(nonStreaming.concurrency64, c1.target);
        const pipe = find(nonStreaming.concurrency64, 'pipe proxy');
        const cpu = c1.target === 'direct' ? '—' : `${c1.cpuUsPerRequest.median.toFixed(0)} / ${c64?.cpuUsPerRequest.median.toFixed(0) ?? 'n/a'}`;
        const backend = (c1.backendCpuUsPerRequest?.median ?? 0) > 0 ? c1.backendCpuUsPerRequest.median.toFixed(0) : '—';
        const vsPipe = c64 && pipe && c1.target !== 'direct' ? `${((c64.throughput.median / pipe.throughput.median) * 100).toFixed(0)}%` : '—';
        return [c1.target, ms(c1.p50Ms), ms(c1.p99Ms), c1.target === 'direct' ? '—' : ms(c1.addedP50Ms), c1.target === 'direct' ? '—' : ms(c1.addedP99Ms), formatSummary(c64?.throughput, 0), c1.target === 'direct' ? '100%' : pct(c64?.throughputRatio), vsPipe, cpu, backend];
      }),
    ),
  );
  const streamRows = (figures: typeof streaming.light.figures) =>
    figures.map((figure) => [
      figure.target,
      ms(figure.ttfbP50Ms),
      ms(figure.ttfbP99Ms),
      figure.target === 'direct' ? '—' : ms(figure.addedTtfbP99Ms),
      ms(figure.gapP50Ms),
      ms(figure.gapP99Ms),
      figure.target === 'direct' ? '—' : `${ms(figure.addedGapP50Ms)} / ${ms(figure.addedGapP99Ms)}`,
      `${figure.completed}/${figure.streams}`,
      `${figure.dropped}/${figure.merged}`,
      figure.target === 'direct' ? '—' : figure.cpuMsPerStream.median.toFixed(2),
    ]);
  const streamHeaders = ['target', 'TTFB p50 ms', 'TTFB p99 ms', 'added TTFB p99', 'gap p50 ms', 'gap p99 ms', 'added gap p50 / p99', 'streams ok', 'dropped/merged', 'CPU ms/stream'];
  out.push('', `Streaming chat, ${streaming.upstream.events} events ${streaming.upstream.gapMs} ms apart: ${streaming.light.spec.concurrency} staggered streams at a time (${streaming.light.rounds} rounds)`);
  out.push(table(streamHeaders, streamRows(streaming.light.figures)));
  out.push('', `Streaming chat: ${streaming.concurrent.spec.concurrency} concurrent streams (${streaming.concurrent.rounds} rounds)`);
  out.push(table(streamHeaders, streamRows(streaming.concurrent.figures)));
  const reading = (value: { rssKiB: number | undefined; retainedKiB: number | undefined }) => `${kib(value.rssKiB)} / ${kib(value.retainedKiB)}`;
  out.push('', `Gateway memory: RSS / retained after a full GC (heap + external); ${memory.rounds[0]?.openStreams ?? 0} streams of ${memory.streamEvents} events open at once`);
  out.push(
    table(
      ['idle', 'streams open (per round)', 'per open stream: RSS', 'per open stream: retained', 'after the streams', 'at the end', 'usage backlog at the end'],
      [
        [
          reading(memory.idle),
          memory.rounds.map((round) => reading(round.open)).join(', '),
          formatSummary(memory.perStreamRssKiB, 1, ' KiB'),
          formatSummary(memory.perStreamRetainedKiB, 1, ' KiB'),
          reading(memory.afterStreams),
          reading(memory.afterAll),
          `${results.usageBacklog.backlog} of ${results.usageBacklog.requestsServed} records unwritten`,
        ],
      ],
    ),
  );
  const coldRows = (label: string, figures: ColdStartFigure[]) =>
    figures.map((figure) => [
      figure.handler,
      label,
      `${(figure.bundleBytes / 1024).toFixed(0)} KiB`,
      `${figure.importMs.median.toFixed(1)} (${figure.importMs.min.toFixed(1)}–${figure.importMs.max.toFixed(1)})`,
      figure.processMs.toFixed(0),
      figure.init ? `${figure.init.totalMs.median.toFixed(0)} (${figure.init.totalMs.min.toFixed(0)}–${figure.init.totalMs.max.toFixed(0)}): import ${figure.init.importMs.toFixed(0)} + first request ${figure.init.firstRequestMs.toFixed(0)} (answered after ${figure.init.answerMs.toFixed(0)})` : '—',
    ]);
  const deployed = results.coldStart.deployed;
  out.push('', `Cold start (import in a fresh process, median of ${results.coldStart.selfContained[0]?.runs ?? 0})`);
  out.push(table(['function', 'bundle', 'size', 'import ms', 'whole process ms', 'init ms (import + first request)'], [...coldRows('self-contained', results.coldStart.selfContained), ...(Array.isArray(deployed) ? coldRows('as deployed', deployed) : [])]));
  if (!Array.isArray(deployed)) out.push(`as deployed: skipped (${deployed.skipped})`);
  out.push('', `Usage writer (embedded store + usage files, one core; SQS-shaped batches of ${'skipped' in results.writer ? 'n/a' : results.writer.batchSize})`);
  if ('skipped' in results.writer) out.push(`skipped: ${results.writer.skipped}`);
  else {
    const writer = results.writer;
    out.push(
      table(
        ['batches in flight', 'records/s'],
        [...writer.results.map((run) => [String(run.parallel), run.perSecond.toFixed(0)]), ['ledger only (1)', writer.ledgerOnly.perSecond.toFixed(0)], ['usage files only (1)', writer.archiveOnly.perSecond.toFixed(0)]],
      ),
    );
  }
  if ('skipped' in results.portkey) out.push('', `Portkey: ${results.portkey.skipped}`);
  else out.push('', `Portkey ${results.portkey.version} streaming: ${results.portkey.streaming}`);
  if (results.profile && !('skipped' in results.profile)) {
    const { summary } = results.profile;
    out.push('', `Gateway CPU profile at c=${results.profile.concurrency} (${summary.busyMs.toFixed(0)} ms busy over ${results.profile.seconds} s and ${results.profile.requests} requests: ${((summary.busyMs * 1000) / Math.max(1, results.profile.requests)).toFixed(0)} µs per request, ${(summary.idleShare * 100).toFixed(0)}% idle); share of busy time by part (nearest project file or package on the stack):`);
    for (const part of summary.byPart) out.push(`  ${(part.share * 100).toFixed(1).padStart(5)}%  ${part.name}`);
    out.push('  by file or package:');
    for (const owner of summary.byOwner.slice(0, 12)) out.push(`  ${(owner.share * 100).toFixed(1).padStart(5)}%  ${owner.name}`);
  }
  out.push('', 'Targets (issues 7 and 19)');
  out.push(table(['target', 'measured', 'met'], results.targets.map((check) => [check.target, check.measured, check.met === null ? 'n/a' : check.met ? 'yes' : 'NO'])));
  return out.join('\n');
}

/** The issue's targets against this run's figures. */
export function checkTargets(results: Omit<BenchResults, 'targets'>): TargetCheck[] {
  const c1 = find(results.nonStreaming.concurrency1, 'gateway');
  const c64 = find(results.nonStreaming.concurrency64, 'gateway');
  const portkey = results.nonStreaming.concurrency1.find((figure) => figure.target.startsWith('portkey'));
  const light = results.streaming.light.figures.find((figure) => figure.target === 'gateway');
  const heavy = results.streaming.concurrent.figures.find((figure) => figure.target === 'gateway');
  const value = (summary: Summary | undefined, digits = 3) => (summary && Number.isFinite(summary.median) ? summary.median.toFixed(digits) : 'n/a');
  const known = (summary: Summary | undefined) => summary !== undefined && Number.isFinite(summary.median);
  const checks: TargetCheck[] = [
    { id: 'added-p50', target: 'added latency p50 ≤ 0.5 ms (c=1)', measured: `${value(c1?.addedP50Ms)} ms`, met: known(c1?.addedP50Ms) ? (c1?.addedP50Ms.median ?? Infinity) <= 0.5 : null },
    { id: 'added-p99', target: 'added latency p99 ≤ 3 ms (c=1)', measured: `${value(c1?.addedP99Ms)} ms`, met: known(c1?.addedP99Ms) ? (c1?.addedP99Ms.median ?? Infinity) <= 3 : null },
    { id: 'throughput', target: 'throughput at c=64 ≥ 40% of direct', measured: c64 ? `${(c64.throughputRatio.median * 100).toFixed(1)}%` : 'n/a', met: c64 ? c64.throughputRatio.median >= 0.4 : null },
    { id: 'added-ttfb-p99', target: 'added TTFB p99 ≤ 2 ms', measured: `${value(light?.addedTtfbP99Ms)} ms (at 200 concurrent: ${value(heavy?.addedTtfbP99Ms, 1)} ms)`, met: known(light?.addedTtfbP99Ms) ? (light?.addedTtfbP99Ms.median ?? Infinity) <= 2 : null },
  ];
  const streams = [light, heavy].filter((figure) => figure !== undefined);
  const broken = streams.reduce((sum, figure) => sum + figure.dropped + figure.merged + figure.outOfOrder + figure.failed + figure.missingDone, 0);
  const total = streams.reduce((sum, figure) => sum + figure.streams, 0);
  checks.push({ id: 'events', target: 'no event merged or dropped (200 concurrent streams)', measured: `${broken} faults in ${total} streams`, met: total > 0 ? broken === 0 : null });
  const retainedPerStream = results.memory.perStreamRetainedKiB;
  checks.push({
    id: 'memory-per-stream',
    target: '≤ 64 KB memory per open stream',
    measured: `${value(retainedPerStream, 1)} KiB retained after a full GC (RSS rose ${value(results.memory.perStreamRssKiB, 1)} KiB per stream: RSS deltas depend on how far the heap had grown before)`,
    met: known(retainedPerStream) ? retainedPerStream.median * 1024 <= 64_000 : null,
  });
  const self = results.coldStart.selfContained;
  const deployed = Array.isArray(results.coldStart.deployed) ? results.coldStart.deployed : undefined;
  const largest = (figures: ColdStartFigure[]) => Math.max(...figures.map((figure) => figure.bundleBytes));
  const slowest = (figures: ColdStartFigure[]) => Math.max(...figures.map((figure) => figure.importMs.median));
  checks.push({
    id: 'bundle-size',
    target: 'each handler bundle ≤ 400 KB minified',
    measured: `largest ${(largest(self) / 1000).toFixed(0)} KB self-contained${deployed ? `; ${(largest(deployed) / 1000).toFixed(0)} KB as deployed` : ''}`,
    met: self.length ? largest(self) <= 400_000 : null,
    ...(deployed ? { note: `as deployed: ${largest(deployed) <= 400_000 ? 'met' : 'missed'}` } : {}),
  });
  checks.push({
    id: 'import-time',
    target: 'each handler imports in ≤ 60 ms',
    measured: `slowest ${slowest(self).toFixed(0)} ms self-contained${deployed ? `; ${slowest(deployed).toFixed(0)} ms as deployed` : ''}${initFigures(deployed)}`,
    met: self.length ? slowest(self) <= 60 : null,
    ...(deployed ? { note: `as deployed: ${slowest(deployed) <= 60 ? 'met' : 'missed'}` } : {}),
  });
  if (deployed) {
    const slowestDeployed = deployed.reduce((slowestSoFar, figure) => (figure.importMs.median > slowestSoFar.importMs.median ? figure : slowestSoFar));
    checks.push({
      id: 'import-time-deployed',
      target: 'each deployed bundle imports in ≤ 60 ms (issue 19)',
      measured: `slowest ${slowestDeployed.importMs.median.toFixed(1)} ms (${slowestDeployed.handler})`,
      met: slowest(deployed) <= 60,
    });
  }
  const sqs = find(results.nonStreaming.concurrency1, 'gateway, usage via SQS');
  const pipe64 = find(results.nonStreaming.concurrency64, 'pipe proxy');
  const pipe1 = find(results.nonStreaming.concurrency1, 'pipe proxy');
  const heavyPipe = results.streaming.concurrent.figures.find((figure) => figure.target === 'pipe proxy');
  const writer = 'skipped' in results.writer ? undefined : results.writer;
  const writerRate = writer ? Math.max(...writer.results.map((run) => run.perSecond)) : undefined;
  checks.push(
    {
      id: 'sqs-within-local',
      target: 'with usage via SQS, added p50 within 0.1 ms of the local host (issue 19)',
      measured: sqs ? `${value(sqs.addedP50Ms)} ms vs ${value(c1?.addedP50Ms)} ms` : 'not measured (quick mode)',
      met: sqs && c1 ? sqs.addedP50Ms.median - c1.addedP50Ms.median <= 0.1 : null,
    },
    {
      id: 'throughput-vs-pipe',
      target: 'throughput at c=64 ≥ 0.5 × the pipe proxy (issue 19)',
      measured: c64 && pipe64 ? `${(c64.throughput.median / pipe64.throughput.median).toFixed(2)} ×` : 'n/a',
      met: c64 && pipe64 ? c64.throughput.median / pipe64.throughput.median >= 0.5 : null,
    },
    {
      id: 'added-ttfb-p99-1ms',
      target: 'added stream TTFB p99 ≤ 1 ms, 10 staggered streams (issue 19)',
      measured: `${value(light?.addedTtfbP99Ms)} ms`,
      met: known(light?.addedTtfbP99Ms) ? (light?.addedTtfbP99Ms.median ?? Infinity) <= 1 : null,
    },
    {
      id: 'heavy-ttfb-vs-pipe',
      target: '200 streams at once: TTFB p99 ≤ 1.3 × the pipe proxy (issue 19)',
      measured: heavy && heavyPipe ? `${value(heavy.ttfbP99Ms, 1)} vs ${value(heavyPipe.ttfbP99Ms, 1)} ms` : 'n/a',
      met: heavy && heavyPipe ? heavy.ttfbP99Ms.median <= 1.3 * heavyPipe.ttfbP99Ms.median : null,
    },
    {
      id: 'writer-rate',
      target: 'usage writer ≥ 2,000 records/s, embedded store, one core (issue 19)',
      measured: writerRate === undefined ? 'n/a' : `${writerRate.toFixed(0)} records/s`,
      met: writerRate === undefined ? null : writerRate >= 2000,
    },
    {
      id: 'cpu-per-request',
      target: 'CPU per request at c=1 ≤ 500 µs, request path (issue 19)',
      // The floor's own figure beside it: this VM's speed varies by half from hour to hour, the ratio less.
      measured: `${value(c1?.cpuUsPerRequest, 0)} µs (store and writer apart: ${value(c1?.backendCpuUsPerRequest, 0)} µs)${pipe1 && c1 && known(pipe1.cpuUsPerRequest) ? `; the pipe proxy ${value(pipe1.cpuUsPerRequest, 0)} µs, ${(c1.cpuUsPerRequest.median / pipe1.cpuUsPerRequest.median).toFixed(2)} × it` : ''}`,
      met: known(c1?.cpuUsPerRequest) ? (c1?.cpuUsPerRequest.median ?? Infinity) <= 500 : null,
    },
  );
  checks.push({
    id: 'vs-portkey',
    target: "our added latency lower than Portkey's (c=1 p50)",
    measured: portkey ? `ours ${value(c1?.addedP50Ms)} ms, Portkey ${value(portkey.addedP50Ms)} ms` : 'Portkey not measured',
    met: portkey && c1 ? c1.addedP50Ms.median < portkey.addedP50Ms.median : null,
  });
  return checks;
}

/** Init as Lambda counts it (import + first request) of the route groups measured so, for the import target's row. */
function initFigures(deployed: ColdStartFigure[] | undefined): string {
  const measured = (deployed ?? []).flatMap((figure) => (figure.init ? [`${figure.handler} ${figure.init.totalMs.median.toFixed(0)} ms`] : []));
  return measured.length ? `; init with a first request: ${measured.join(', ')}` : '';
}
