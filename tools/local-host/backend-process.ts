import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import type { BackendMessage, BackendRequest, BackendStart } from './backend-protocol.ts';
import { startEmbeddedStore } from './embedded-store.ts';
import { lambdaContext } from './lambda-context.ts';

/**
 * The local host's backend process: the embedded store (dynalite, LevelDB and the transactional front) and
 * the usage writer, which in AWS run apart from the route-group functions. In the host's process they
 * would share its core: every record's writes, and V8's compiling and collecting for them, would hold up the
 * requests being served. The host reaches the store over loopback HTTP and hands usage batches over with
 * `deliver` on the IPC channel; it ends this process by disconnecting, and so does its death.
 */
const send = process.send?.bind(process);
if (!send) throw new Error('backend-process.ts runs as a child of the local host, with an IPC channel (see backend.ts)');
const post = (message: BackendMessage) => void send(message);
const start = JSON.parse(process.argv[2] ?? '{}') as BackendStart;

// Ctrl-C reaches the whole process group: the host drains its usage queue through this writer first, then
// disconnects. Without the host (killed, crashed) the channel closes and this process ends with it: a
// transaction it cuts off is undone when the store opens again (transaction-undo-log.ts).
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => {});
process.on('disconnect', () => process.exit(0));
// What would kill this process silently (dynalite throws outside any promise when its LevelDB is closed or
// locked) is said to the host first, which rejects the calls waiting on it with the reason.
const failAndExit = (error: unknown) => send(failure(error), () => process.exit(1));
function failure(error: unknown): BackendMessage {
  const code = typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
  return { kind: 'failed', message: error instanceof Error ? error.message : String(error), ...(code ? { code } : {}) };
}
process.on('uncaughtException', failAndExit);
process.on('unhandledRejection', failAndExit);

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
  process.on('message', (request: BackendRequest) => {
    answer(request).then(
      (result) => post({ kind: 'answer', id: request.id, result }),
      (error: unknown) => post({ kind: 'error', id: request.id, message: error instanceof Error ? error.message : String(error) }),
    );
  });
  post({ kind: 'ready', endpoint: store.endpoint });
} catch (error) {
  // Said, then gone: the host has nothing more to ask of a backend whose store did not open.
  failAndExit(error);
}
