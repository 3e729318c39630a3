import { getEventListeners } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeHttpFetch, NonPublicAddressError } from '../../shared/transport/node-http-fetch.ts';

const nodeHttpFetch = createNodeHttpFetch({ allowPrivateAddresses: true });

let server: Server;
let base: string;
/** Set once the server sees the connection of a stalled answer close. */
let stalledClosed = false;

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      if (request.url === '/echo') {
        response.writeHead(201, { 'content-type': 'application/json', 'set-cookie': ['a=1', 'b=2'] });
        response.end(JSON.stringify({ method: request.method, body, authorization: request.headers.authorization, length: request.headers['content-length'] }));
      } else if (request.url === '/stream') {
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        response.write('data: 1\n\n');
        setTimeout(() => response.end('data: 2\n\n'), 20);
      } else if (request.url?.startsWith('/headers')) {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ url: request.url, rawHeaders: request.rawHeaders }));
      } else if (request.url === '/stall') {
        // A head and part of a body, then nothing: for the abort after the head.
        response.writeHead(200, { 'content-type': 'application/json' });
        response.write('{"id":');
        response.on('close', () => (stalledClosed = true));
      } else if (request.url === '/empty') {
        response.writeHead(204).end();
      } else {
        // Never answers: for the abort test.
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('nodeHttpFetch', () => {
  it('sends the method, headers and body, and answers a Response with status, headers and body', async () => {
    const response = await nodeHttpFetch(`${base}/echo`, { method: 'POST', headers: { authorization: 'Bearer sk-x' }, body: 'héllo' });
    expect(response.status).toBe(201);
    expect(response.ok).toBe(true);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    expect(await response.json()).toEqual({ method: 'POST', body: 'héllo', authorization: 'Bearer sk-x', length: '6' });
  });

  it('streams the body as it arrives', async () => {
    const response = await nodeHttpFetch(`${base}/stream`, { method: 'POST', body: '{}' });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe('data: 1\n\n');
    let rest = '';
    for (let read = await reader.read(); !read.done; read = await reader.read()) rest += new TextDecoder().decode(read.value);
    expect(rest).toBe('data: 2\n\n');
  });

  it('answers a bodiless status without a body', async () => {
    const response = await nodeHttpFetch(`${base}/empty`, { method: 'POST', body: '' });
    expect(response.status).toBe(204);
    expect(response.body).toBeNull();
  });

  it('rejects with the connection error code when nothing listens', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    await expect(nodeHttpFetch(`http://127.0.0.1:${port}/`, { method: 'POST', body: '' })).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });

  it('gives up when its signal is aborted before the answer, with an AbortError caused by the reason', async () => {
    const abort = new AbortController();
    const reason = new Error('too slow');
    setTimeout(() => abort.abort(reason), 30);
    await expect(nodeHttpFetch(`${base}/silent`, { method: 'POST', body: '', signal: abort.signal })).rejects.toMatchObject({ name: 'AbortError', code: 'ABORT_ERR', cause: reason });
  });

  it('lets an exchange go when its signal is aborted after the head: the body read whole fails with the reason, and the connection closes', async () => {
    const abort = new AbortController();
    const response = await nodeHttpFetch(`${base}/stall`, { method: 'POST', body: '', signal: abort.signal });
    const reading = response.text();
    const reason = new Error('deadline');

    abort.abort(reason);

    await expect(reading).rejects.toBe(reason);
    await expect.poll(() => stalledClosed).toBe(true);
  });

  it('sends nothing when its signal was aborted already', async () => {
    const abort = new AbortController();
    abort.abort(new Error('gone'));
    await expect(nodeHttpFetch('http://127.0.0.1:1/', { method: 'POST', body: '', signal: abort.signal })).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('stops watching its signal once the exchange is over', async () => {
    const abort = new AbortController();
    const response = await nodeHttpFetch(`${base}/echo`, { method: 'POST', body: 'x', signal: abort.signal });
    await response.text();
    await expect.poll(() => getEventListeners(abort.signal, 'abort').length).toBe(0);
  });

  it('sends the host the URL names, the path with its query, and one content-length of the body sent', async () => {
    const response = await nodeHttpFetch(`${base}/headers?a=1&b=%20`, { method: 'POST', headers: { 'Content-Length': '999', 'x-one': 'v' }, body: 'héllo' });
    const { url, rawHeaders } = (await response.json()) as { url: string; rawHeaders: string[] };
    expect(url).toBe('/headers?a=1&b=%20');
    const lines = Object.groupBy(rawHeaders.flatMap((value, index) => (index % 2 === 0 ? [[value.toLowerCase(), rawHeaders[index + 1] as string] as const] : [])), ([name]) => name);
    expect(lines.host?.map(([, value]) => value)).toEqual([new URL(base).host]);
    expect(lines['content-length']?.map(([, value]) => value)).toEqual([String(Buffer.byteLength('héllo'))]);
    expect(lines['x-one']?.map(([, value]) => value)).toEqual(['v']);
  });

  it('sends a host header the caller gives (a signed call) in place of the host of the URL', async () => {
    const response = await nodeHttpFetch(`${base}/headers`, { method: 'GET', headers: { host: 'bedrock-runtime.us-east-1.amazonaws.com' } });
    const { rawHeaders } = (await response.json()) as { rawHeaders: string[] };
    expect(rawHeaders.filter((_, index) => rawHeaders[index - 1]?.toLowerCase() === 'host')).toEqual(['bedrock-runtime.us-east-1.amazonaws.com']);
  });

  it('sends a header named twice in different case once, with the value given last', async () => {
    const response = await nodeHttpFetch(`${base}/headers`, { method: 'GET', headers: { Authorization: 'Bearer client', authorization: 'Bearer provider' } });
    const { rawHeaders } = (await response.json()) as { rawHeaders: string[] };
    expect(rawHeaders.filter((_, index) => rawHeaders[index - 1]?.toLowerCase() === 'authorization')).toEqual(['Bearer provider']);
  });

  it('sends the credentials of the URL as Basic authorization, unless the caller authorizes', async () => {
    const withCredentials = `http://us%40er:p%3Ass@${new URL(base).host}/echo`;
    const basic = (await (await nodeHttpFetch(withCredentials, { method: 'POST', body: '' })).json()) as { authorization: string };
    expect(basic.authorization).toBe(`Basic ${Buffer.from('us@er:p:ss').toString('base64')}`);
    const bearer = (await (await nodeHttpFetch(withCredentials, { method: 'POST', headers: { Authorization: 'Bearer k' }, body: '' })).json()) as { authorization: string };
    expect(bearer.authorization).toBe('Bearer k');
  });

  it('refuses a header value that would split the request', async () => {
    await expect(nodeHttpFetch(`${base}/echo`, { method: 'POST', headers: { 'x-bad': 'a\r\nx-injected: 1' }, body: '' })).rejects.toMatchObject({ code: 'ERR_INVALID_CHAR' });
  });
});

describe('createNodeHttpFetch where private upstreams are not allowed', () => {
  const publicOnly = createNodeHttpFetch({ allowPrivateAddresses: false });

  it.each(['http://169.254.169.254/latest/meta-data/', 'http://[::169.254.169.254]/', 'http://[64:ff9b::a9fe:a9fe]/', 'http://198.18.0.1/', 'http://224.0.0.1/', 'http://[fec0::1]/', 'http://127.0.0.1:1/'])(
    'refuses to connect to the address literal of %s',
    async (url) => {
      await expect(publicOnly(url, { method: 'POST', body: '' })).rejects.toBeInstanceOf(NonPublicAddressError);
    },
  );

  it('refuses a name that resolves to a non-public address, at connect time', async () => {
    // "localhost" resolves to loopback without any DNS server, as nip.io-style names resolve to what they name.
    await expect(publicOnly('http://localhost:1/', { method: 'POST', body: '' })).rejects.toMatchObject({ code: 'ENOTPUBLIC' });
  });
});
