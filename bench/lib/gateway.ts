import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findChildren, findTaskset, NODE, runToEnd, startService, type Service } from './processes.ts';
import { queryLocalUsage } from '../../tools/cli/local-usage-query.ts';

/** The core the local host's backend process is moved to when the gateway is pinned (the upstream's side). */
export const BACKEND_CORE = '1';

export interface BenchGateway {
  service: Service;
  /**
   * The local host's backend process (tools/local-host/backend.ts): its embedded store and usage writer,
   * which in AWS run elsewhere (DynamoDB, the writer function). Moved off the pinned core with all its
   * threads (LevelDB's pool, V8's helpers), its CPU counted apart.
   */
  backendPid: number | undefined;
  url: string;
  key: string;
  dataDir: string;
  stop(): Promise<void>;
}

export interface GatewayOptions {
  upstreamPort: number;
  pinTo: string | undefined;
  /** Extra node flags for the gateway process (e.g. --cpu-prof). */
  nodeFlags?: string[];
  /** The host entry: `tools/local-host/start.ts` (what `npm start` runs) unless given. */
  entry?: string;
  env?: Record<string, string>;
  name?: string;
  /** Loads bench/probe-preload.ts with an IPC channel and --expose-gc: memory and CPU-profile probes on request. */
  probes?: boolean;
}

/**
 * Configures the `bench` project through the admin CLI, as an operator would, on the data directory of a
 * local host (running or not): the OpenAI provider at the fake upstream, one allowed model; returns a key.
 */
export async function configureBenchProject(dataDir: string, upstreamPort: number): Promise<string> {
  const admin = (...args: string[]) => runToEnd(NODE, ['tools/cli/admin-cli.ts', ...args], { env: { GATEWAY_DATA_DIR: dataDir } });
  await admin('project', 'create', 'bench');
  await admin('provider', 'set', 'bench', 'openai', '--api-key', 'sk-bench', '--base-url', `http://127.0.0.1:${upstreamPort}/v1`, '--protocol', 'openai');
  await admin('model', 'allow', 'bench', 'openai/gpt-4o-mini');
  const created = JSON.parse(await admin('key', 'create', 'bench')) as { key?: unknown };
  if (typeof created.key !== 'string') throw new Error('key create printed no key');
  return created.key;
}

/** The local host's backend process: its child running tools/local-host/backend-entry.mjs. */
async function findBackendProcess(hostPid: number): Promise<number | undefined> {
  for (const pid of await findChildren(hostPid)) {
    const commandLine = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
    if (commandLine.includes('backend-entry.mjs')) return pid;
  }
  return undefined;
}

/**
 * Starts the local host (`tools/local-host/start.ts`) in a process of its own on a fresh data directory and
 * configures a `bench` project through the admin CLI, as an operator would: the OpenAI provider at the
 * fake upstream, one allowed model and a key. `node tools/local-host/start.ts` is what `npm start` runs,
 * minus npm's wrapper process, so the pid is the gateway's own (for taskset and /proc).
 */
export async function startBenchGateway(options: GatewayOptions): Promise<BenchGateway> {
  const dataDir = await mkdtemp(join(tmpdir(), 'gateway-bench-'));
  const service = await startService({
    name: options.name ?? 'gateway',
    command: NODE,
    args: [...(options.nodeFlags ?? []), ...(options.probes ? ['--expose-gc', '--import', './bench/probe-preload.ts'] : []), options.entry ?? 'tools/local-host/start.ts'],
    // Quiet: the request log writes a terminal line per request, synchronously (see docs/performance.md).
    env: { PORT: '0', GATEWAY_DATA_DIR: dataDir, GATEWAY_MOCK_WORD_DELAY_MS: '0', POWERTOOLS_LOG_LEVEL: 'SILENT', GATEWAY_QUIET: '1', ...options.env },
    readyPattern: /Model gateway listening on (http:\/\/\S+)/,
    pinTo: options.pinTo,
    ipc: options.probes ?? false,
  });
  try {
    // taskset's pinning was inherited at the fork, so the process is moved with every thread (-a).
    const backendPid = await findBackendProcess(service.pid);
    const taskset = findTaskset();
    if (options.pinTo !== undefined && taskset && backendPid !== undefined) await runToEnd(taskset, ['-a', '-p', '-c', BACKEND_CORE, String(backendPid)]);
    const key = await configureBenchProject(dataDir, options.upstreamPort);
    return {
      service,
      backendPid,
      url: service.ready,
      key,
      dataDir,
      async stop() {
        // A graceful stop drains the usage backlog first, which can take minutes after heavy load.
        await service.stop(1_000);
        await rm(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await service.stop();
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
}

export interface HeapFigures {
  heapUsed: number;
  external: number;
  arrayBuffers: number;
  rss: number;
  collected: boolean;
}

/** The gateway's memory after a full garbage collection (needs `probes`). */
export async function heapAfterGc(gateway: BenchGateway): Promise<HeapFigures | undefined> {
  try {
    return (await gateway.service.ask({ probe: 'memory' })) as HeapFigures;
  } catch {
    return undefined;
  }
}

/**
 * Usage records the gateway's writer has written so far: distinct records in its usage files (one Parquet
 * file per writer batch), counted with the same DuckDB query path `npm run usage` takes.
 */
export async function countUsageRecords(dataDir: string): Promise<number> {
  try {
    const [row] = await queryLocalUsage(dataDir, 'SELECT COUNT(DISTINCT id) AS n FROM usage_records');
    return Number(row?.n ?? 0);
  } catch {
    return 0; // no usage file yet, or one the writer is still renaming into place
  }
}
