import { Agent, request, type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http';

/** One answer of the DynamoDB-compatible store, body kept as bytes so a relay is byte-for-byte. */
export interface StoreResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** A store answer that is not a success, carried up so it can be relayed to the client as is. */
export class StoreError extends Error {
  readonly response: StoreResponse;

  constructor(response: StoreResponse) {
    super(`The embedded store answered HTTP ${response.status}: ${response.body.toString('utf8').slice(0, 200)}`);
    this.response = response;
    this.name = 'StoreError';
  }
}

// Per-connection headers: node sets its own for the hop to the store.
const HOP_BY_HOP_HEADERS = new Set(['host', 'connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'content-length']);

// dynalite checks that a signature is present, never that it is valid: a syntactically complete one suffices.
const INTERNAL_AUTHORIZATION = 'AWS4-HMAC-SHA256 Credential=local/20250101/local/dynamodb/aws4_request, SignedHeaders=host, Signature=local';

/** HTTP client of the store behind the front, over kept-alive loopback connections. */
export class StoreConnection {
  private readonly agent = new Agent({ keepAlive: true });

  private readonly port: number;
  private readonly host: string;

  constructor(port: number, host = '127.0.0.1') {
    this.port = port;
    this.host = host;
  }

  /** Sends a client's request on unchanged (body and end-to-end headers). */
  forward(method: string, path: string, headers: IncomingHttpHeaders, body: Buffer): Promise<StoreResponse> {
    const outgoing: OutgoingHttpHeaders = {};
    for (const [name, value] of Object.entries(headers)) {
      if (value !== undefined && !HOP_BY_HOP_HEADERS.has(name)) outgoing[name] = value;
    }
    outgoing['content-length'] = body.length;
    return this.send(method, path, outgoing, body);
  }

  /** Issues one DynamoDB operation of the front's own (a read of a before-image, a step, a rollback). */
  call(operation: string, payload: object): Promise<StoreResponse> {
    const body = Buffer.from(JSON.stringify(payload), 'utf8');
    return this.send(
      'POST',
      '/',
      {
        'content-type': 'application/x-amz-json-1.0',
        'x-amz-target': `DynamoDB_20120810.${operation}`,
        'x-amz-date': new Date().toISOString().replace(/[-:]|\.\d{3}/g, ''),
        authorization: INTERNAL_AUTHORIZATION,
        'content-length': body.length,
      },
      body,
    );
  }

  /** Like `call`, but a non-2xx answer becomes a thrown StoreError; returns the parsed JSON body. */
  async callOk(operation: string, payload: object): Promise<unknown> {
    const response = await this.call(operation, payload);
    if (response.status < 200 || response.status >= 300) throw new StoreError(response);
    return parseJsonBody(response);
  }

  close(): void {
    this.agent.destroy();
  }

  private send(method: string, path: string, headers: OutgoingHttpHeaders, body: Buffer): Promise<StoreResponse> {
    return new Promise((resolve, reject) => {
      const outgoing = request({ host: this.host, port: this.port, method, path, headers, agent: this.agent }, (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
        incoming.on('error', reject);
        incoming.on('end', () => resolve({ status: incoming.statusCode ?? 500, headers: incoming.headers, body: Buffer.concat(chunks) }));
      });
      outgoing.on('error', reject);
      outgoing.end(body);
    });
  }
}

/** The JSON body of a store answer, or undefined when it has none or it is not JSON. */
export function parseJsonBody(response: StoreResponse): unknown {
  if (response.body.length === 0) return undefined;
  try {
    return JSON.parse(response.body.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

/** The short error name of a store answer (`ConditionalCheckFailedException`), from `__type`. */
export function errorNameOf(response: StoreResponse): string | undefined {
  const body = parseJsonBody(response);
  if (typeof body !== 'object' || body === null || !('__type' in body) || typeof body.__type !== 'string') return undefined;
  return body.__type.split('#').pop();
}
