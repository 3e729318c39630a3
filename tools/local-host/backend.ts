import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import type { RuntimeConfig } from '../../shared/config/runtime-config.ts';
import type { BackendCall, BackendMessage, BackendResults, BackendStart } from './backend-protocol.ts';
import type { EmbeddedStore, TableNames } from './embedded-store.ts';
import { isLevelNotOpenCode, StoreHeldError } from './store-held-error.ts';

/**
 * The backend process seen from the host: its store (closing it alone simulates a store outage and leaves
 * the process running), and the usage writer it runs.
 */
export interface LocalBackend extends EmbeddedStore {
  /** The backend process's id (tools that measure the host count its CPU apart, as AWS runs it apart). */
  pid: number;
  /** Builds the writer handler in the backend process with the handlers' configuration. */
  startWriter(config: RuntimeConfig): Promise<void>;
  /** Runs the writer on one SQS-shaped batch, as the event source mapping would. */
  deliver(event: SQSEvent): Promise<SQSBatchResponse>;
  /** Closes the store and ends the process. */
  shutdown(): Promise<void>;
}

/** How long an ending backend process may take before it is killed. */
const EXIT_GRACE_MS = 5_000;

/** Resolves once the process has exited (at once if it already has). */
function exitOf(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/**
 * Starts the backend process (backend-process.ts) on `storeDirectory`: resolves once its store serves, or
 * rejects with the reason it could not open (StoreHeldError when another process holds the directory). A
 * failure to open ends that process, never the caller's: dynalite throws it outside any promise. A process,
 * not a worker thread: V8's helper threads (concurrent marking, compiling) serve every isolate of a
 * process, so a thread's store and writer also took the requests' core through them (docs/performance.md).
 */
export async function startLocalBackend(storeDirectory: string, tables: TableNames): Promise<LocalBackend> {
  const start: BackendStart = { storeDirectory, tables };
  // No inherited flags (a test runner's or a profiler's): the entry registers the TypeScript loader itself.
  const child = fork(fileURLToPath(new URL('./backend-entry.mjs', import.meta.url)), [JSON.stringify(start)], {
    execArgv: [],
    serialization: 'advanced',
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  let nextId = 0;
  let exited: Error | undefined;

  const endpoint = await new Promise<string>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the local backend process stopped while starting (exit code ${code})`)));
    child.once('message', (message: BackendMessage) => {
      if (message.kind === 'ready') resolve(message.endpoint);
      else if (message.kind === 'failed' && isLevelNotOpenCode(message.code)) reject(new StoreHeldError(storeDirectory, { cause: new Error(message.message) }));
      else reject(new Error(message.kind === 'failed' ? message.message : 'the local backend process answered before it was ready'));
    });
  }).catch(async (error: unknown) => {
    child.kill('SIGKILL');
    await exitOf(child);
    throw error;
  });
  for (const event of ['error', 'exit', 'message']) child.removeAllListeners(event);

  child.on('message', (message: BackendMessage) => {
    if (message.kind === 'failed') return failAll(new Error(`the local backend process failed: ${message.message}`));
    if (message.kind !== 'answer' && message.kind !== 'error') return;
    const call = pending.get(message.id);
    pending.delete(message.id);
    if (message.kind === 'answer') call?.resolve(message.result);
    else call?.reject(new Error(message.message));
  });
  const failAll = (error: Error) => {
    exited ??= error;
    for (const call of pending.values()) call.reject(error);
    pending.clear();
  };
  child.on('error', (error) => failAll(error));
  child.on('exit', (code, signal) => failAll(new Error(`the local backend process has stopped (${signal ? `signal ${signal}` : `exit code ${code}`})`)));

  function call<Op extends BackendCall['op']>(request: Extract<BackendCall, { op: Op }>): Promise<BackendResults[Op]> {
    if (exited) return Promise.reject(exited);
    const id = (nextId += 1);
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      child.send({ ...request, id }, (error) => {
        if (!error) return;
        pending.delete(id);
        reject(error);
      });
    });
  }

  let closing: Promise<void> | undefined;
  return {
    endpoint,
    pid: child.pid as number,
    isEmpty: () => call({ op: 'isEmpty' }),
    close: async () => {
      if (!exited) await call({ op: 'closeStore' });
    },
    startWriter: async (config) => {
      await call({ op: 'startWriter', config });
    },
    deliver: (event) => call({ op: 'deliver', event }),
    shutdown: () =>
      (closing ??= (async () => {
        if (!exited) await call({ op: 'closeStore' });
        // The process ends when its channel closes (backend-process.ts).
        if (child.connected) child.disconnect();
        const kill = setTimeout(() => child.kill('SIGKILL'), EXIT_GRACE_MS);
        await exitOf(child);
        clearTimeout(kill);
      })()),
  };
}
