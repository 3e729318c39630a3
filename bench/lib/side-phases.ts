import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { summarizeCpuProfile } from './cpu-profile.ts';
import { countUsageRecords, startBenchGateway } from './gateway.ts';
import { chatBody, runLoad } from './http-load.ts';
import { NODE, runToEnd, sleep } from './processes.ts';
import type { BenchResults, WriterFigures } from './results.ts';
import type { MeasuredTarget } from './services.ts';

/** SQS batches as the writer's event source mapping delivers them (infra/gateway-stack.ts) and the local queue too. */
const WRITER_BATCH_SIZE = 100;

/** The usage writer's throughput, in a process of its own on the system-under-test core. */
export async function measureWriter(records: number, pinTo: string | undefined): Promise<WriterFigures | { skipped: string }> {
  try {
    const out = await runToEnd(NODE, ['bench/writer-throughput.ts', JSON.stringify({ records, batchSize: WRITER_BATCH_SIZE, parallel: [1, 4] })], { pinTo });
    return JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as WriterFigures;
  } catch (error) {
    return { skipped: error instanceof Error ? error.message.slice(0, 300) : String(error) };
  }
}

/** One streaming request through Portkey: its answer, as the doc's note on its Node streaming bug needs it checked in each run. */
export async function checkPortkeyStreaming(portkey: MeasuredTarget): Promise<string> {
  try {
    const response = await fetch(`${portkey.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...portkey.headers },
      body: chatBody(portkey.model, true),
      signal: AbortSignal.timeout(15_000),
    });
    const text = await response.text();
    const events = text.split('\n\n').filter((event) => event.startsWith('data:')).length;
    return response.status === 200 && events > 60 ? `works (HTTP 200, ${events} events)` : `fails: HTTP ${response.status} ${text.slice(0, 120).replace(/\s+/g, ' ')}`;
  } catch (error) {
    return `fails: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/** Waits (the gateway running) until its written usage records reach `expected` or stop growing for 3 s, at most `limitMs`. */
export async function waitForUsageRecords(dataDir: string, expected: number, limitMs: number): Promise<number> {
  const deadline = Date.now() + limitMs;
  let last = -1;
  let stableSince = Date.now();
  for (;;) {
    const count = await countUsageRecords(dataDir);
    if (count !== last) stableSince = Date.now();
    last = count;
    if (count >= expected || Date.now() > deadline || Date.now() - stableSince > 3_000) return count;
    await sleep(250);
  }
}

/**
 * A separate gateway with the probe preload, profiled (V8 sampling profiler) over `seconds` of load at
 * `connections` after the same warm-up as the measured targets, then summarized: where its CPU goes on
 * the request path.
 */
export async function profileGateway(
  upstreamPort: number,
  pinTo: string | undefined,
  { connections, warmupSeconds, seconds }: { connections: number; warmupSeconds: number; seconds: number },
): Promise<NonNullable<BenchResults['profile']>> {
  const file = join(tmpdir(), `gateway-bench-${process.pid}.cpuprofile`);
  const gateway = await startBenchGateway({ upstreamPort, pinTo, name: 'gateway-profiled', probes: true });
  try {
    const target = { name: 'gateway', url: gateway.url, headers: { authorization: `Bearer ${gateway.key}` }, model: 'openai/gpt-4o-mini' };
    await runLoad(target, connections, Math.max(1, warmupSeconds));
    await gateway.service.ask({ probe: 'profile-start' });
    const run = await runLoad(target, connections, seconds);
    await gateway.service.ask({ probe: 'profile-stop', file });
    return { concurrency: connections, seconds, requests: run.requests, summary: await summarizeCpuProfile(file), file: process.env.BENCH_KEEP_PROFILE ? file : undefined };
  } finally {
    await gateway.stop();
    if (!process.env.BENCH_KEEP_PROFILE) await rm(file, { force: true });
  }
}
