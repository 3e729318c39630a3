import { cpus } from 'node:os';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { EVENT_GAP_MS, STREAM_EVENTS } from './lib/upstream-shape.ts';
import { measureColdStarts } from './lib/cold-start.ts';
import { countUsageRecords } from './lib/gateway.ts';
import { runLoad } from './lib/http-load.ts';
import { runHttpPhase } from './lib/http-phase.ts';
import { parseBenchCommandLine } from './lib/plan.ts';
import { findTaskset, PROJECT_ROOT, sleep } from './lib/processes.ts';
import { checkTargets, renderReport } from './lib/report.ts';
import { measureOpenStreams, perStream, readMemory, type MemoryRound } from './lib/memory-phase.ts';
import type { BenchResults } from './lib/results.ts';
import { startBenchServices, SUT_CORE } from './lib/services.ts';
import { checkPortkeyStreaming, measureWriter, profileGateway, waitForUsageRecords } from './lib/side-phases.ts';
import { runStreamLoad, runStreamPhase, type StreamRunSpec } from './lib/stream-phase.ts';
import { commandOrExit } from '../tools/command-line-outcome.ts';

/**
 * `npm run bench [-- --quick] [-- --profile]`: what the gateway adds over calling the upstream directly,
 * next to a bare pipe proxy (the floor) and Portkey, plus streaming, memory, cold start and the usage
 * writer. Prints a report and writes bench/results/latest.json. See docs/performance.md.
 */
const commandLine = commandOrExit(parseBenchCommandLine(process.argv.slice(2)));
const plan = commandLine.plan;
const startedAt = Date.now();
const log = (line: string) => console.log(line);
const elapsed = () => `${((Date.now() - startedAt) / 1000).toFixed(0)} s`;
const pin = findTaskset() ? SUT_CORE : undefined;
const kib = (value: number | undefined) => (value === undefined ? 'n/a' : `${(value / 1024).toFixed(1)} MiB`);

log(`gateway bench (${plan.mode}): cold start and writer first, then the services`);
const coldStart = await measureColdStarts(plan.coldStartRuns, plan.coldStartDeployed);
log(`  cold start measured (${elapsed()})`);
const writer = await measureWriter(plan.writerRecords, pin);
log(`  writer measured (${elapsed()})`);

const services = await startBenchServices({ withSqsVariant: plan.withSqsVariant, withPortkey: true });
// Interrupted: resume what is paused and stop everything this bench started (npm may relay the signal a second time).
let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (interrupted) return;
    interrupted = true;
    void services.stop().finally(() => process.exit(130));
  });
}
const notes = [...services.notes];
const { direct, pipe, gateway } = services;
const dataDir = services.gatewayHost.dataDir;
let requestsBeforeNonStreaming = 0;
try {
  log(`  services up (${elapsed()}): upstream :${services.upstreamPort}, gateway ${gateway.url}${services.portkey ? `, ${services.portkey.name}` : ''}`);
  services.focus(gateway);
  await sleep(1_000);
  const idle = await readMemory(services.gatewayHost);

  // Streaming first: the non-streaming load leaves the gateway a usage backlog (see the writer figures).
  const streamTargets = [direct, pipe, gateway];
  const light = plan.lightStreams;
  const lightSpec: StreamRunSpec = { streams: light.concurrency * light.streamsPerWorker, concurrency: light.concurrency, staggerMs: light.staggerMs, skipFirst: light.skipFirst };
  const heavy = plan.heavyStreams;
  const heavySpec: StreamRunSpec = { streams: heavy.concurrency, concurrency: heavy.concurrency, staggerMs: 0, skipFirst: false };
  if (plan.streamWarmupSeconds > 0) {
    // Warmed as the non-streaming rounds are (plan.ts): the request path, then the relay, compiled by the JIT.
    log(`streaming: warm-up, ${plan.streamWarmupSeconds} s of requests at c=1 and ${heavy.concurrency} streams at once per target (${elapsed()})`);
    for (const target of streamTargets) {
      services.focus(target);
      const warmed = await runLoad(target, 1, plan.streamWarmupSeconds);
      await runStreamLoad(target, heavySpec);
      if (target === gateway) requestsBeforeNonStreaming += warmed.requests + heavySpec.streams;
    }
    // The warm-up's usage records are written before any stream is timed, not during the gateway's rounds.
    services.focus(gateway);
    await waitForUsageRecords(dataDir, requestsBeforeNonStreaming, 120_000);
    services.focus(undefined);
  }
  log(`streaming: ${light.concurrency} staggered streams at a time (${elapsed()})`);
  const lightFigures = await runStreamPhase(streamTargets, { spec: lightSpec, rounds: light.rounds, focus: services.focus, log });
  requestsBeforeNonStreaming += light.rounds * (lightSpec.streams + (lightSpec.skipFirst ? lightSpec.concurrency : 0));

  log(`streaming: ${heavy.concurrency} concurrent streams (${elapsed()})`);
  const heavyFigures = await runStreamPhase(streamTargets, { spec: heavySpec, rounds: heavy.rounds, focus: services.focus, log });
  requestsBeforeNonStreaming += heavy.rounds * heavySpec.streams;

  log(`memory: ${heavy.concurrency} streams of ${plan.memory.events} events open at once through the gateway (${elapsed()})`);
  services.focus(gateway);
  const memoryRounds: MemoryRound[] = [];
  for (let round = 0; round < plan.memory.rounds; round += 1) {
    const measured = await measureOpenStreams(services.gatewayHost, gateway, heavy.concurrency, plan.memory.events);
    memoryRounds.push(measured);
    requestsBeforeNonStreaming += heavy.concurrency;
    log(`  round ${round + 1}: ${measured.openStreams} open, RSS ${kib(measured.before.rssKiB)} → ${kib(measured.open.rssKiB)}, retained ${kib(measured.before.retainedKiB)} → ${kib(measured.open.retainedKiB)}${measured.faults ? `, ${measured.faults} stream faults` : ''}`);
  }
  const written = await waitForUsageRecords(dataDir, requestsBeforeNonStreaming, plan.mode === 'quick' ? 6_000 : 20_000);
  if (written < requestsBeforeNonStreaming) notes.push(`after the streaming phases, ${requestsBeforeNonStreaming - written} of ${requestsBeforeNonStreaming} usage records were still unwritten when memory was read`);
  const afterStreams = await readMemory(services.gatewayHost);

  const httpTargets = [direct, pipe, gateway, ...(services.gatewaySqs ? [services.gatewaySqs] : []), ...(services.portkey ? [services.portkey] : [])];
  log(`non-streaming: concurrency 1 (${elapsed()})`);
  const concurrency1 = await runHttpPhase(httpTargets, { connections: 1, ...plan.latency, focus: services.focus, log });
  log(`non-streaming: concurrency ${plan.throughput.connections} (${elapsed()})`);
  const concurrency64 = await runHttpPhase(httpTargets, { ...plan.throughput, focus: services.focus, log });
  const requestsServed = requestsBeforeNonStreaming + [...concurrency1, ...concurrency64].filter((figure) => figure.target === 'gateway').reduce((sum, figure) => sum + figure.allRequests, 0);

  services.focus(gateway);
  await sleep(plan.mode === 'quick' ? 1_000 : 2_000);
  const afterAll = await readMemory(services.gatewayHost);
  const usageRecordsWritten = await countUsageRecords(dataDir);
  services.focus(services.portkey);
  const portkey = services.portkey ? { version: services.portkey.name.replace(/^portkey /, ''), streaming: await checkPortkeyStreaming(services.portkey) } : { skipped: notes.find((note) => note.startsWith('Portkey')) ?? 'not started' };

  let profile: BenchResults['profile'];
  if (plan.profile) {
    services.focus(undefined);
    log(`profiling the gateway at c=1 (${elapsed()})`);
    profile = await profileGateway(services.upstreamPort, pin, { connections: 1, warmupSeconds: plan.latency.warmupSeconds, seconds: plan.mode === 'quick' ? 3 : 6 }).catch((error: unknown) => ({ skipped: String(error) }));
  }

  const partial: Omit<BenchResults, 'targets'> = {
    version: 1,
    generatedAt: new Date().toISOString(),
    mode: plan.mode,
    durationSeconds: (Date.now() - startedAt) / 1000,
    machine: {
      cpus: cpus().length,
      cpuModel: cpus()[0]?.model ?? 'unknown',
      node: process.versions.node,
      platform: `${process.platform} ${process.arch}`,
      pinnedCore: pin ?? null,
      pinning: pin
        ? `systems under test pinned to CPU ${pin} with taskset (one at a time: the others are paused with SIGSTOP); upstream and load generators unpinned`
        : 'no taskset: nothing pinned',
    },
    notes,
    nonStreaming: { concurrency1, concurrency64, seconds: plan.latency.seconds, rounds: plan.latency.rounds },
    streaming: {
      upstream: { events: STREAM_EVENTS, gapMs: EVENT_GAP_MS },
      light: { spec: lightSpec, rounds: light.rounds, figures: lightFigures },
      concurrent: { spec: heavySpec, rounds: heavy.rounds, figures: heavyFigures },
    },
    memory: {
      idle,
      rounds: memoryRounds,
      perStreamRssKiB: perStream(memoryRounds, (reading) => reading.rssKiB),
      perStreamRetainedKiB: perStream(memoryRounds, (reading) => reading.retainedKiB),
      afterStreams,
      afterAll,
      streamEvents: plan.memory.events,
    },
    usageBacklog: { requestsServed, usageRecordsWritten, backlog: Math.max(0, requestsServed - usageRecordsWritten) },
    coldStart,
    writer,
    portkey,
    ...(profile ? { profile } : {}),
  };
  const results: BenchResults = { ...partial, targets: checkTargets(partial) };
  const resultsDir = join(PROJECT_ROOT, 'bench', 'results');
  await mkdir(resultsDir, { recursive: true });
  await writeFile(join(resultsDir, 'latest.json'), `${JSON.stringify(results, null, 2)}\n`);
  log('');
  log(renderReport(results));
  log(`\n(written to bench/results/latest.json in ${elapsed()})`);
} finally {
  await services.stop();
}
