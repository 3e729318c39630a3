import { startBenchGateway, type BenchGateway } from './gateway.ts';
import type { Target } from './http-load.ts';
import { portkeyHeaders, startPortkey } from './portkey.ts';
import { cpuTimeMs, findTaskset, NODE, startService, type Service } from './processes.ts';

/** A target of the measurements, with the process to pause while others are measured (none for direct). */
export interface MeasuredTarget extends Target {
  pid: number | undefined;
  /** The process whose CPU is not the request path's (the local host's store and writer); counted apart, paused with it. */
  backendPid?: number | undefined;
}

export interface BenchServices {
  upstreamPort: number;
  direct: MeasuredTarget;
  pipe: MeasuredTarget;
  gateway: MeasuredTarget;
  gatewayHost: BenchGateway;
  gatewaySqs: MeasuredTarget | undefined;
  portkey: MeasuredTarget | undefined;
  notes: string[];
  /** Pauses (SIGSTOP) every system under test but `active`, and resumes that one (SIGCONT). */
  focus(active: MeasuredTarget | undefined): void;
  stop(): Promise<void>;
}

/** CPU used so far by a target's process (ms): on its request path, and in its backend process apart. */
export async function targetCpuMs(target: MeasuredTarget): Promise<{ requestPath: number; backend: number } | undefined> {
  if (target.pid === undefined) return undefined;
  const requestPath = await cpuTimeMs(target.pid);
  if (requestPath === undefined) return undefined;
  const backend = target.backendPid === undefined ? 0 : ((await cpuTimeMs(target.backendPid)) ?? 0);
  return { requestPath, backend };
}

/** The gateway in its AWS shape: usage records through SQS SendMessage, to a fake SQS in another process. */
async function startSqsVariant(upstreamPort: number, pin: string | undefined, track: (service: Service) => Service): Promise<BenchGateway> {
  const sqs = track(await startService({ name: 'fake-sqs', command: NODE, args: ['bench/fake-sqs.ts'], readyPattern: /listening on (\d+)/ }));
  return startBenchGateway({ upstreamPort, pinTo: pin, name: 'gateway-sqs', entry: 'bench/gateway-sqs-host.ts', env: { BENCH_SQS_URL: `http://127.0.0.1:${sqs.ready}` } });
}

/** The core the system under test gets; the upstream and the load generator are left to the scheduler. */
export const SUT_CORE = '0';

/**
 * Starts the upstream, the floor (pipe proxy), the gateway as `npm start` runs it, the gateway in its AWS
 * shape (usage through SQS to another process) and Portkey, each a process of its own; the systems under
 * test are pinned to one core.
 */
export async function startBenchServices(options: { withSqsVariant: boolean; withPortkey: boolean }): Promise<BenchServices> {
  const notes: string[] = [];
  const pin = findTaskset() ? SUT_CORE : undefined;
  if (!pin) notes.push('taskset not found: the systems under test were NOT pinned to a core (install util-linux for steadier figures)');
  const started: Service[] = [];
  const track = (service: Service): Service => (started.push(service), service);
  const port = (service: Service) => Number(service.ready);
  const upstream = track(await startService({ name: 'upstream', command: NODE, args: ['bench/fake-upstream.ts'], readyPattern: /listening on (\d+)/ }));
  // The rest start side by side: each waits on its own process.
  const starting = await Promise.allSettled([
    startService({ name: 'pipe-proxy', command: NODE, args: ['bench/pipe-proxy.ts', upstream.ready], readyPattern: /listening on (\d+)/, pinTo: pin }).then(track),
    startBenchGateway({ upstreamPort: port(upstream), pinTo: pin, probes: true }),
    options.withSqsVariant ? startSqsVariant(port(upstream), pin, track) : Promise.resolve(undefined),
    options.withPortkey ? startPortkey(pin) : Promise.resolve(undefined),
  ] as const);
  const [pipeStart, gatewayStart, sqsStart, portkeySettled] = starting;
  const gateways = [gatewayStart, sqsStart].flatMap((result) => (result.status === 'fulfilled' && result.value ? [result.value] : []));
  if (pipeStart.status === 'rejected' || gatewayStart.status === 'rejected' || sqsStart.status === 'rejected') {
    await Promise.allSettled([...gateways.map((started) => started.stop()), ...started.map((service) => service.stop())]);
    const failed = [pipeStart, gatewayStart, sqsStart].find((result) => result.status === 'rejected');
    throw failed?.status === 'rejected' ? failed.reason : new Error('a service did not start');
  }
  const pipe = pipeStart.value;
  const gateway = gatewayStart.value;
  const sqsVariant = sqsStart.value;
  const portkeyStart = portkeySettled.status === 'fulfilled' ? portkeySettled.value : { ok: false as const, reason: String(portkeySettled.reason) };
  const extraGateways: BenchGateway[] = sqsVariant ? [sqsVariant] : [];
  const gatewaySqs: MeasuredTarget | undefined = sqsVariant
    ? { name: 'gateway, usage via SQS', url: sqsVariant.url, headers: { authorization: `Bearer ${sqsVariant.key}` }, model: 'openai/gpt-4o-mini', pid: sqsVariant.service.pid, backendPid: sqsVariant.backendPid }
    : undefined;
  let portkey: MeasuredTarget | undefined;
  if (portkeyStart?.ok) {
    track(portkeyStart.service);
    portkey = { name: `portkey ${portkeyStart.version}`, url: `http://127.0.0.1:${portkeyStart.service.ready}`, headers: portkeyHeaders(port(upstream)), model: 'gpt-4o-mini', pid: portkeyStart.service.pid };
  } else if (portkeyStart) notes.push(`Portkey skipped: ${portkeyStart.reason}`);
  const direct: MeasuredTarget = { name: 'direct', url: `http://127.0.0.1:${upstream.ready}`, headers: { authorization: 'Bearer sk-bench' }, model: 'gpt-4o-mini', pid: undefined };
  const pipeTarget: MeasuredTarget = { name: 'pipe proxy', url: `http://127.0.0.1:${pipe.ready}`, headers: { authorization: 'Bearer sk-bench' }, model: 'gpt-4o-mini', pid: pipe.pid };
  const gatewayTarget: MeasuredTarget = { name: 'gateway', url: gateway.url, headers: { authorization: `Bearer ${gateway.key}` }, model: 'openai/gpt-4o-mini', pid: gateway.service.pid, backendPid: gateway.backendPid };
  // A paused gateway's backend pauses with it: it would go on writing the usage backlog.
  const pausable = [pipeTarget, gatewayTarget, gatewaySqs, portkey].flatMap((target) =>
    target?.pid === undefined ? [] : [{ target, pids: [target.pid, ...(target.backendPid === undefined ? [] : [target.backendPid])] }],
  );
  const signal = (pid: number, name: NodeJS.Signals) => {
    try {
      process.kill(pid, name);
    } catch {
      // already gone
    }
  };
  return {
    upstreamPort: port(upstream),
    direct,
    pipe: pipeTarget,
    gateway: gatewayTarget,
    gatewayHost: gateway,
    gatewaySqs,
    portkey,
    notes,
    focus(active) {
      for (const { target, pids } of pausable) for (const pid of pids) signal(pid, target.pid === active?.pid ? 'SIGCONT' : 'SIGSTOP');
    },
    async stop() {
      for (const { pids } of pausable) for (const pid of pids) signal(pid, 'SIGCONT');
      await Promise.allSettled([gateway.stop(), ...extraGateways.map((variant) => variant.stop()), ...started.map((service) => service.stop())]);
    },
  };
}
