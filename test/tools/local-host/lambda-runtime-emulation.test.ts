import { createServer, request as httpRequest, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { LocalResponseStream } from '../../../tools/local-host/lambda-runtime-emulation.ts';

/**
 * The local host's response stream: what a handler writes reaches the client as a function URL would
 * send it, and an ended answer leaves the process at once, before the invocation's remaining work
 * (handing its usage record over) runs in the same turn.
 */
let server: Server | undefined;

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

/** Serves one request with `respond`, and answers the client's status, headers and body. */
async function exchange(respond: (response: ServerResponse) => void): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  server = createServer((request, response) => {
    request.resume();
    request.on('end', () => respond(response));
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest({ host: '127.0.0.1', port, method: 'POST', path: '/' }, (answer) => {
      let body = '';
      answer.on('data', (chunk: Buffer) => (body += chunk.toString()));
      answer.on('end', () => resolve({ status: answer.statusCode ?? 0, headers: answer.headers, body }));
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

describe('LocalResponseStream', () => {
  it('sends the prelude, the body and the end as the handler wrote them', async () => {
    const answer = await exchange((response) => {
      const stream = new LocalResponseStream(response);
      stream.setPrelude({ statusCode: 201, headers: { 'content-type': 'application/json' }, cookies: ['a=1'] });
      stream.write('{"ok":');
      stream.end('true}');
    });
    expect(answer).toMatchObject({ status: 201, headers: { 'content-type': 'application/json', 'set-cookie': ['a=1'] }, body: '{"ok":true}' });
  });

  it('has the whole answer out of the process once the handler ends its stream, before the rest of that turn runs', async () => {
    const seenInTheSameTurn: Array<{ ended: boolean; corked: number; buffered: number }> = [];
    const answer = await exchange((response) => {
      const stream = new LocalResponseStream(response);
      stream.setPrelude({ statusCode: 200, headers: { 'content-type': 'application/json' } });
      stream.write('{"answer":42}');
      // As middy ends a string body: end with a callback, then the invocation goes on (its usage hand-over).
      stream.end(() => undefined);
      const socket = response.socket;
      void Promise.resolve().then(() => seenInTheSameTurn.push({ ended: response.writableEnded, corked: socket?.writableCorked ?? -1, buffered: socket?.writableLength ?? -1 }));
    });
    expect(answer.body).toBe('{"answer":42}');
    expect(seenInTheSameTurn).toEqual([{ ended: true, corked: 0, buffered: 0 }]);
  });

  it('lets a stream with writes still pending end after them, in order', async () => {
    const answer = await exchange((response) => {
      const stream = new LocalResponseStream(response);
      stream.setPrelude({ statusCode: 200, headers: { 'content-type': 'text/event-stream' } });
      const big = 'x'.repeat(4 * 1024 * 1024);
      stream.write(`data: ${big}\n\n`);
      stream.write('data: last\n\n');
      stream.end();
    });
    expect(answer.body.endsWith('data: last\n\n')).toBe(true);
    expect(answer.body.length).toBe(4 * 1024 * 1024 + 'data: \n\n'.length + 'data: last\n\n'.length);
  });
});
