import { startBenchGateway } from './lib/gateway.ts';
import { startService, NODE, cpuTimeMs } from './lib/processes.ts';
import { runLoad } from './lib/http-load.ts';
import { percentile } from './lib/stats.ts';
const up = await startService({ name: 'upstream', command: NODE, args: ['bench/fake-upstream.ts'], readyPattern: /listening on (\d+)/ });
const sqs = await startService({ name: 'sqs', command: NODE, args: ['bench/fake-sqs.ts'], readyPattern: /listening on (\d+)/ });
const pipe = await startService({ name: 'pipe', command: NODE, args: ['bench/pipe-proxy.ts', up.ready], readyPattern: /listening on (\d+)/, pinTo: '0' });
const gw = await startBenchGateway({ upstreamPort: Number(up.ready), pinTo: '0' });
const gs = await startBenchGateway({ upstreamPort: Number(up.ready), pinTo: '0', entry: 'bench/gateway-sqs-host.ts', env: { BENCH_SQS_URL: `http://127.0.0.1:${sqs.ready}` } });
const targets = [
  { name: 'direct', url: `http://127.0.0.1:${up.ready}`, headers: {}, model: 'gpt-4o-mini', pid: 0 },
  { name: 'pipe', url: `http://127.0.0.1:${pipe.ready}`, headers: {}, model: 'gpt-4o-mini', pid: pipe.pid },
  { name: 'gateway', url: gw.url, headers: { authorization: `Bearer ${gw.key}` }, model: 'openai/gpt-4o-mini', pid: gw.service.pid },
  { name: 'gateway-sqs', url: gs.url, headers: { authorization: `Bearer ${gs.key}` }, model: 'openai/gpt-4o-mini', pid: gs.service.pid },
];
const pausable = [gw.service.pid, gs.service.pid];
async function measure(t: typeof targets[number], c: number, s: number) {
  for (const pid of pausable) process.kill(pid, pid === t.pid ? 'SIGCONT' : 'SIGSTOP');
  return runLoad(t, c, s);
}
for (const t of targets) { const r = await measure(t, 1, 2); console.log('warm', t.name, r.requests, r.non2xx, r.errors); }
for (const c of [1, 64]) for (const t of targets) {
  const cpu0 = await cpuTimeMs(gw.service.pid);
  const r = await measure(t, c, 4);
  console.log(c, t.name, 'rps', r.throughput.toFixed(0), 'p50', percentile(r.latencies, 50).toFixed(3), 'p99', percentile(r.latencies, 99).toFixed(3), 'non2xx', r.non2xx, 'err', r.errors, 'gwcpu', (await cpuTimeMs(gw.service.pid))! - cpu0!);
}
console.log(await (await fetch(`http://127.0.0.1:${sqs.ready}/`)).text());
for (const pid of pausable) process.kill(pid, 'SIGCONT');
await gw.stop(); await gs.stop(); await pipe.stop(); await up.stop(); await sqs.stop();
