import { parentPort, workerData } from 'node:worker_threads';
import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import type { BackendMessage, BackendRequest, BackendStart } from './backend-protocol.ts';
import { startEmbeddedStore } from './embedded-store.ts';
import { lambdaContext } from './lambda-context.ts';

/**
 * The local host's backend thread: the embedded store (dynalite, LevelDB and the transactional front) and
 * the usage writer, which in AWS run apart from the route-group functions. Here they would share the
 * gateway's event loop and core: every record's writes would hold up the requests being served. The main
 * thread reaches the store over loopback HTTP as before and hands usage batches over with `deliver`.
 */
const port = parentPort;
if (!port) throw new Error('backend-thread.ts runs as a worker thread (see backend.ts)');
const start = workerData as BackendStart;
const post = (message: BackendMessage) => port.postMessage(message);

type Writer = (event: SQSEvent, context: Context) => Promise<SQSBatchResponse>;
let writer: Writer | undefined;

try {
  const store = await startEmbeddedStore(start.storeDirectory, start.tables);
  let storeOpen = true;
  const closeStore = async () => {
    if (!storeOpen) return;
    storeOpen = false;
    await store.close();
  };
  const answer = async (request: BackendRequest): Promise<unknown> => {
    switch (request.op) {
      case 'isEmpty':
        return store.isEmpty();
      case 'startWriter': {
        const module = await import('../../functions/writer/handler.ts');
        writer = module.createHandler(request.config) as unknown as Writer;
        return null;
      }
      case 'deliver':
        if (!writer) throw new Error('the usage writer was not started');
        return writer(request.event, lambdaContext('gateway-writer'));
      case 'closeStore':
        await closeStore();
        return null;
    }
  };
  port.on('message', (request: BackendRequest) => {
    answer(request).then(
      (result) => post({ kind: 'answer', id: request.id, result }),
      (error: unknown) => post({ kind: 'error', id: request.id, message: error instanceof Error ? error.message : String(error) }),
    );
  });
  post({ kind: 'ready', endpoint: store.endpoint });
} catch (error) {
  post({ kind: 'failed', message: error instanceof Error ? error.message : String(error) });
}
