import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { crc32 } from 'node:zlib';
import { AsyncMutex } from './async-mutex.ts';
import { StoreConnection, type StoreResponse } from './store-connection.ts';
import { TransactWriteEmulator, type TransactOutcome } from './transact-write-emulator.ts';
import { TransactionUndoLog } from './transaction-undo-log.ts';

/**
 * The local store's DynamoDB endpoint: a loopback proxy in front of dynalite that relays every request
 * and adds the TransactWriteItems dynalite lacks. Writes go through one mutex so that a transaction
 * (read before-images, apply, maybe roll back) never interleaves with another write; reads do not wait.
 */
export interface TransactionalFront {
  endpoint: string;
  close(): Promise<void>;
}

const API_VERSION = 'DynamoDB_20120810';
const WRITE_OPERATIONS = new Set(['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem']);
// Table changes also wait for the mutex, and afterwards drop the cached key schemas.
const TABLE_OPERATIONS = new Set(['CreateTable', 'DeleteTable', 'UpdateTable']);
const RELAYED_HEADERS = ['content-type', 'x-amzn-requestid', 'x-amz-crc32'];
const MAX_REQUEST_BYTES = 16 * 1024 * 1024; // dynalite's own limit

/**
 * Starts the front on a free loopback port before dynalite on `storePort`. With `undoLogPath`, its
 * transactions are atomic across a crash: what a killed process left half-applied is undone first.
 */
export async function startTransactionalFront(storePort: number, undoLogPath?: string): Promise<TransactionalFront> {
  const store = new StoreConnection(storePort);
  const writes = new AsyncMutex();
  const opened = undoLogPath === undefined ? undefined : TransactionUndoLog.open(undoLogPath);
  const transactions = new TransactWriteEmulator(store, opened?.log);
  if (opened && opened.unfinished.length > 0) {
    try {
      await transactions.undo(opened.unfinished);
      opened.log.clear();
    } catch (error) {
      opened.log.close();
      store.close();
      throw error;
    }
  }

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const body = await readBody(request);
    if (body === undefined) return void response.writeHead(413).end();
    const forward = () => store.forward(request.method ?? 'POST', request.url ?? '/', request.headers, body);
    const operation = operationOf(request.headers['x-amz-target']);
    const contentType = answerContentType(request.headers['content-type']);
    if (operation === 'TransactWriteItems') {
      const payload = parseJson(body);
      if (payload === undefined) return answerJson(response, 400, { __type: 'com.amazon.coral.service#SerializationException' }, contentType);
      return answerOutcome(response, await writes.run(() => transactions.execute(payload)), contentType);
    }
    if (WRITE_OPERATIONS.has(operation ?? '')) return relay(response, await writes.run(forward));
    if (TABLE_OPERATIONS.has(operation ?? '')) {
      const changed = await writes.run(async () => {
        const answer = await forward();
        transactions.forgetKeySchemas();
        return answer;
      });
      return relay(response, changed);
    }
    relay(response, await forward());
  };

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (response.headersSent) return void response.destroy();
      const message = error instanceof Error ? error.message : String(error);
      answerJson(response, 500, { __type: 'com.amazonaws.dynamodb.v20120810#InternalServerError', message }, 'application/x-amz-json-1.0');
    });
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
  } catch (error) {
    opened?.log.close();
    store.close();
    throw error;
  }
  const { port } = server.address() as AddressInfo;
  const close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
      store.close();
      opened?.log.close();
    });
  return { endpoint: `http://127.0.0.1:${port}`, close };
}

/** `PutItem` from `DynamoDB_20120810.PutItem`; undefined for anything else (relayed as is). */
function operationOf(target: string | string[] | undefined): string | undefined {
  if (typeof target !== 'string') return undefined;
  const [api, operation, ...rest] = target.split('.');
  return api === API_VERSION && rest.length === 0 ? operation : undefined;
}

// Like dynalite (and AWS): answer in the JSON flavour the client spoke.
function answerContentType(requestContentType: string | undefined): string {
  const base = (requestContentType ?? '').split(';')[0]?.trim();
  return base === 'application/x-amz-json-1.0' ? base : 'application/json';
}

async function readBody(request: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += bytes.length;
    if (size > MAX_REQUEST_BYTES) return undefined;
    chunks.push(bytes);
  }
  return Buffer.concat(chunks);
}

function parseJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

function relay(response: ServerResponse, answer: StoreResponse): void {
  const headers: Record<string, string | string[]> = {};
  for (const name of RELAYED_HEADERS) {
    const value = answer.headers[name];
    if (value !== undefined) headers[name] = value;
  }
  response.writeHead(answer.status, headers).end(answer.body);
}

function answerOutcome(response: ServerResponse, outcome: TransactOutcome, contentType: string): void {
  if (outcome.kind === 'relay') return relay(response, outcome.response);
  answerJson(response, outcome.status, outcome.payload, contentType);
}

function answerJson(response: ServerResponse, status: number, payload: object, contentType: string): void {
  const body = Buffer.from(JSON.stringify(payload), 'utf8');
  response
    .writeHead(status, {
      'content-type': contentType,
      'content-length': body.length,
      'x-amzn-requestid': randomBytes(39).toString('base64').toUpperCase().replace(/[+/]/g, '0'),
      // The SDK v3 does not check it, other clients (SDK v2) do: the CRC32 of the body, as AWS sends.
      'x-amz-crc32': String(crc32(body)),
    })
    .end(body);
}
