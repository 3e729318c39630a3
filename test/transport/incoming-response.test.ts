import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeHttpFetch } from '../../shared/transport/node-http-fetch.ts';

const nodeHttpFetch = createNodeHttpFetch({ allowPrivateAddresses: true });

let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      if (request.url === '/empty') return void response.writeHead(204).end();
      if (request.url === '/bom') return void response.writeHead(200, { 'content-type': 'application/json' }).end('\uFEFF{"bom":true}');
      if (request.url === '/cut') {
        // Promises 100 bytes, sends 10, then the connection dies.
        response.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
        response.write('{"partial"');
        return void setTimeout(() => response.socket?.destroy(), 20);
      }
      if (request.url === '/slow') {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.write('{"slow":');
        return void setTimeout(() => response.end('true}'), 300);
      }
      response.setHeader('x-zeta', 'last');
      response.setHeader('content-type', 'application/json');
      response.setHeader('set-cookie', ['a=1', 'b=2']);
      response.setHeader('x-alpha', ['one', 'two']);
      response.end(JSON.stringify({ ok: true }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const fetchAnswer = () => nodeHttpFetch(`${base}/answer`, { method: 'POST', body: '{}' });

describe("an upstream answer's headers", () => {
  it('read case-insensitively, with repeated values joined as fetch joins them', async () => {
    const { headers } = await fetchAnswer();
    expect(headers.get('Content-Type')).toBe('application/json');
    expect(headers.get('x-alpha')).toBe('one, two');
    expect(headers.has('X-ZETA')).toBe(true);
    expect(headers.get('x-missing')).toBeNull();
  });

  it('iterate sorted by name with each Set-Cookie apart, so undici copies them as they are', async () => {
    const { headers } = await fetchAnswer();
    const names = [...headers].map(([name]) => name).filter((name) => !['connection', 'date', 'keep-alive', 'content-length'].includes(name));
    expect(names).toEqual(['content-type', 'set-cookie', 'set-cookie', 'x-alpha', 'x-zeta']);
    const copy = new Headers(headers);
    expect(copy.getSetCookie()).toEqual(['a=1', 'b=2']);
    expect(copy.get('x-alpha')).toBe('one, two');
    const seen: string[] = [];
    headers.forEach((value, name) => seen.push(`${name}=${value}`));
    expect(seen).toContain('x-zeta=last');
  });

  it('cannot be changed, as a fetched response guards its headers', async () => {
    const { headers } = await fetchAnswer();
    expect(() => headers.set('x-alpha', 'three')).toThrow(TypeError);
    expect(() => headers.append('x-new', '1')).toThrow(TypeError);
    expect(() => headers.delete('x-zeta')).toThrow(TypeError);
  });
});

describe("an upstream answer's body", () => {
  it('is read once: a second read fails as it does in fetch', async () => {
    const response = await fetchAnswer();
    expect(response.bodyUsed).toBe(false);
    expect(await response.json()).toEqual({ ok: true });
    expect(response.bodyUsed).toBe(true);
    await expect(response.text()).rejects.toThrow(TypeError);
  });

  it('reads whole after its stream was asked for, and relays into a Response', async () => {
    const streamed = await fetchAnswer();
    expect(streamed.body).not.toBeNull();
    expect(await streamed.text()).toBe('{"ok":true}');
    const relayed = await fetchAnswer();
    expect(await new Response(relayed.body, { headers: relayed.headers }).json()).toEqual({ ok: true });
  });

  it('clones into two readable copies, and gives a Blob typed by its content type', async () => {
    const response = await fetchAnswer();
    const copy = response.clone();
    expect(await copy.json()).toEqual({ ok: true });
    expect(await response.text()).toBe('{"ok":true}');
    const blob = await (await fetchAnswer()).blob();
    expect(blob.type).toBe('application/json');
    expect(await blob.text()).toBe('{"ok":true}');
  });

  it('names the URL it came from, and says ok for a 2xx status', async () => {
    const response = await fetchAnswer();
    expect(response.url).toBe(`${base}/answer`);
    expect(response.ok).toBe(true);
    expect(response.redirected).toBe(false);
    await response.arrayBuffer();
  });
});

describe("an upstream answer's end", () => {
  it('is an empty body, null as a stream, for a 204', async () => {
    const response = await nodeHttpFetch(`${base}/empty`, { method: 'POST', body: '{}' });
    expect(response.body).toBeNull();
    expect(await response.text()).toBe('');
  });

  it('fails the read when the connection dies before the body is whole', async () => {
    const response = await nodeHttpFetch(`${base}/cut`, { method: 'POST', body: '{}' });
    await expect(response.text()).rejects.toThrow();
  });

  it("fails the read with the signal's reason when the call is aborted while the body arrives", async () => {
    const abort = new AbortController();
    const response = await nodeHttpFetch(`${base}/slow`, { method: 'POST', body: '{}', signal: abort.signal });
    const reading = response.text();
    abort.abort(new Error('the caller gave up'));
    await expect(reading).rejects.toThrow('the caller gave up');
  });

  it('reads headers only as the answer has them, not what every object inherits', async () => {
    const { headers } = await fetchAnswer();
    expect(headers.get('constructor')).toBeNull();
    expect(headers.has('toString')).toBe(false);
  });

  it('decodes its text as fetch does, dropping a leading byte order mark', async () => {
    expect(await (await nodeHttpFetch(`${base}/bom`, { method: 'GET' })).json()).toEqual({ bom: true });
    expect(await (await nodeHttpFetch(`${base}/bom`, { method: 'GET' })).text()).toBe('{"bom":true}');
  });
});
