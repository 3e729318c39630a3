import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the fake upstream saw of one request. */
export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  /** The body as JSON; empty when it is none (an upload). */
  body: Record<string, unknown>;
  /** The body's bytes as they arrived. */
  raw: Buffer;
}

/** How the fake upstream answers one request; the default replays a JSON completion. */
export type UpstreamScript = (request: ReceivedRequest, response: ServerResponse) => void | Promise<void>;

export interface FakeUpstream {
  /** Base URL to configure as the provider's `--base-url` (ends in /v1). */
  baseUrl: string;
  received: ReceivedRequest[];
  /** Sets the answer for the following requests. */
  answerWith(script: UpstreamScript): void;
  close(): Promise<void>;
}

/**
 * A separate HTTP server speaking the OpenAI wire format, on loopback: the gateway reaches it over a real
 * socket exactly as it would reach a provider.
 */
export async function startFakeOpenAiUpstream(): Promise<FakeUpstream> {
  const received: ReceivedRequest[] = [];
  let script: UpstreamScript = (_request, response) => sendJson(response, 200, { ok: true });
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const raw = Buffer.concat(chunks);
      const seen: ReceivedRequest = {
        method: request.method ?? 'GET',
        path: request.url ?? '/',
        headers: request.headers,
        body: /json/.test(request.headers['content-type'] ?? 'application/json') && raw.length > 0 ? (JSON.parse(raw.toString('utf8')) as Record<string, unknown>) : {},
        raw,
      };
      received.push(seen);
      void Promise.resolve(script(seen, response)).catch(() => response.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    received,
    answerWith(next) {
      script = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * A provider that checks requests as the real one does: a request `refusalOf` finds refused gets that
 * refusal as a 400 (test/support/*-refusals.ts), every other the answer.
 */
export function refusingAsProvider(refusalOf: (body: Record<string, unknown>) => unknown, answer: UpstreamScript): UpstreamScript {
  return (request, response) => {
    const refusal = refusalOf(request.body);
    return refusal ? sendJson(response, 400, refusal) : answer(request, response);
  };
}

export function sendJson(response: ServerResponse, status: number, payload: unknown, headers: Record<string, string> = {}): void {
  const body = typeof payload === 'string' ? payload : JSON.stringify(payload);
  response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(body);
}

/** Streams an SSE body in the given pieces, pausing between them so each arrives on its own. */
export async function sendSse(response: ServerResponse, pieces: string[], pauseMs = 2): Promise<void> {
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  for (const piece of pieces) {
    response.write(piece);
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
  response.end();
}

/** Splits an SSE body into its events, each still ending with its blank line. */
export function sseEvents(body: string): string[] {
  return body.split(/(?<=\n\n)/).filter((event) => event.trim() !== '');
}
