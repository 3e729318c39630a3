import { startBenchGateway } from './lib/gateway.ts';
import { startService, NODE, runToEnd } from './lib/processes.ts';
import { runLoad } from './lib/http-load.ts';
import { percentile } from './lib/stats.ts';
const mode = process.argv[2] ?? 'split';
if (mode === 'split') await runToEnd('taskset', ['-a', '-cp', '1', String(process.pid)]);
const up = await startService({ name: 'upstream', command: NODE, args: ['bench/fake-upstream.ts'], readyPattern: /listening on (\d+)/, pinTo: mode === 'split' ? '1' : undefined });
const sqs = await startService({ name: 'sqs', command: NODE, args: ['bench/fake-sqs.ts'], readyPattern: /listening on (\d+)/, pinTo: mode === 'split' ? '1' : undefined });
const pipe = await startService({ name: 'pipe', command: NODE, args: ['bench/pipe-proxy.ts', up.ready], readyPattern: /listening on (\d+)/, pinTo: '0' });
const gw = await startBenchGateway({ upstreamPort: Number(up.ready), pinTo: '0', entry: 'bench/gateway-sqs-host.ts', env: { BENCH_SQS_URL: `http://127.0.0.1:${sqs.ready}` } });
const targets = [
  { name: 'direct', url: `http://127.0.0.1:${up.ready}`, headers: {}, model: 'gpt-4o-mini' },
  { name: 'pipe', url: `http://127.0.0.1:${pipe.ready}`, headers: {}, model: 'gpt-4o-mini' },
  { name: 'gateway-sqs', url: gw.url, headers: { authorization: `Bearer ${gw.key}` }, model: 'openai/gpt-4o-mini' },
];
for (const t of targets) await runLoad(t, 1, 2);
for (const c of [1, 64]) for (const t of targets) {
  const r = await runLoad(t, c, 3);
  console.log(mode, c, t.name, 'rps', r.throughput.toFixed(0), 'p50', percentile(r.latencies, 50).toFixed(3), 'p99', percentile(r.latencies, 99).toFixed(3));
}
await gw.stop(); await pipe.stop(); await up.stop(); await sqs.stop();
