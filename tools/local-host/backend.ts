import { Worker } from 'node:worker_threads';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import type { RuntimeConfig } from '../../shared/config/runtime-config.ts';
import type { BackendCall, BackendMessage, BackendResults, BackendStart } from './backend-protocol.ts';
import type { EmbeddedStore, TableNames } from './embedded-store.ts';

/**
 * The backend thread seen from the main thread: its store (closing it alone simulates a store outage and
 * leaves the thread running), and the usage writer it runs.
 */
export interface LocalBackend extends EmbeddedStore {
  /** Builds the writer handler in the backend thread with the handlers' configuration. */
  startWriter(config: RuntimeConfig): Promise<void>;
  /** Runs the writer on one SQS-shaped batch, as the event source mapping would. */
  deliver(event: SQSEvent): Promise<SQSBatchResponse>;
  /** Closes the store and ends the thread. */
  shutdown(): Promise<void>;
}

/**
 * Starts the backend thread (backend-thread.ts) on `storeDirectory`: resolves once its store serves, or
 * rejects with the reason it could not open (the directory in use by another process, say).
 */
export async function startLocalBackend(storeDirectory: string, tables: TableNames): Promise<LocalBackend> {
  const start: BackendStart = { storeDirectory, tables };
  // No inherited flags (a test runner's or a profiler's): the entry registers the TypeScript loader itself.
  const worker = new Worker(new URL('./backend-worker.mjs', import.meta.url), { workerData: start, execArgv: [], name: 'gateway-backend' });
  const pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  let nextId = 0;
  let exited: Error | undefined;

  const endpoint = await new Promise<string>((resolve, reject) => {
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the local backend thread stopped while starting (exit code ${code})`)));
    worker.once('message', (message: BackendMessage) => {
      if (message.kind === 'ready') resolve(message.endpoint);
      else reject(new Error(message.kind === 'failed' ? message.message : 'the local backend thread answered before it was ready'));
    });
  }).catch(async (error: unknown) => {
    await worker.terminate();
    throw error;
  });
  for (const event of ['error', 'exit', 'message']) worker.removeAllListeners(event);

  worker.on('message', (message: BackendMessage) => {
    if (message.kind !== 'answer' && message.kind !== 'error') return;
    const call = pending.get(message.id);
    pending.delete(message.id);
    if (message.kind === 'answer') call?.resolve(message.result);
    else call?.reject(new Error(message.message));
  });
  const failAll = (error: Error) => {
    exited = error;
    for (const call of pending.values()) call.reject(error);
    pending.clear();
  };
  worker.on('error', (error) => failAll(error));
  worker.on('exit', (code) => failAll(new Error(`the local backend thread has stopped (exit code ${code})`)));

  function call<Op extends BackendCall['op']>(request: Extract<BackendCall, { op: Op }>): Promise<BackendResults[Op]> {
    if (exited) return Promise.reject(exited);
    const id = (nextId += 1);
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      worker.postMessage({ ...request, id });
    });
  }

  let closing: Promise<void> | undefined;
  return {
    endpoint,
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
        await worker.terminate();
      })()),
  };
}
