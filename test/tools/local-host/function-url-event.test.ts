import { request as httpRequest, createServer, type OutgoingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodyText } from '../../../shared/http/gateway-http.ts';
import { toGatewayRequest } from '../../../shared/lambda/function-url.ts';
import { buildFunctionUrlEvent } from '../../../tools/local-host/function-url-event.ts';

const NOW_MS = 1_735_689_600_000;

/** A real HTTP server that turns each request into its function-URL event and hands it to the waiting test. */
let port = 0;
let pending: ((event: APIGatewayProxyEventV2) => void) | undefined;
const server = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    pending?.(buildFunctionUrlEvent(request, Buffer.concat(chunks), NOW_MS));
    response.end();
  });
});

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
});

function send(method: string, path: string, headers: OutgoingHttpHeaders | string[], body?: Buffer | string): Promise<APIGatewayProxyEventV2> {
  return new Promise((resolve, reject) => {
    pending = resolve;
    const request = httpRequest({ host: '127.0.0.1', port, method, path, headers }, (response) => {
      response.resume();
      if (response.statusCode !== 200) reject(new Error(`the test server answered ${response.statusCode}`));
    });
    request.on('error', reject);
    request.end(body);
  });
}

describe('buildFunctionUrlEvent', () => {
  it('describes the request as a payload 2.0 event', async () => {
    const event = await send('POST', '/v1/chat/completions', { 'content-type': 'application/json', 'user-agent': 'test/1' }, '{}');
    expect(event.version).toBe('2.0');
    expect(event.routeKey).toBe('$default');
    expect(event.rawPath).toBe('/v1/chat/completions');
    expect(event.rawQueryString).toBe('');
    expect(event.queryStringParameters).toBeUndefined();
    expect(event.requestContext.http).toEqual({
      method: 'POST',
      path: '/v1/chat/completions',
      protocol: 'HTTP/1.1',
      sourceIp: '127.0.0.1',
      userAgent: 'test/1',
    });
    expect(event.requestContext.timeEpoch).toBe(NOW_MS);
    // As function URLs write it (the payload 2.0 format).
    expect(event.requestContext.time).toBe('01/Jan/2025:00:00:00 +0000');
    expect(event.requestContext.domainName).toBe(`127.0.0.1:${port}`);
    expect(event.requestContext.requestId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('splits the query into the raw string and its parameters', async () => {
    const event = await send('GET', '/v1/models?limit=5&q=a%20b', {});
    expect(event.rawPath).toBe('/v1/models');
    expect(event.rawQueryString).toBe('limit=5&q=a%20b');
    expect(event.queryStringParameters).toEqual({ limit: '5', q: 'a b' });
  });

  it('joins a repeated header with commas and keeps cookies out of the headers', async () => {
    const event = await send('GET', '/', ['Host', `127.0.0.1:${port}`, 'X-Tag', 'one', 'X-Tag', 'two', 'Cookie', 'a=1; b=2']);
    expect(event.headers['x-tag']).toBe('one,two');
    expect(event.headers['cookie']).toBeUndefined();
    expect(event.cookies).toEqual(['a=1', 'b=2']);
  });

  it('leaves body undefined and not base64 for an empty request', async () => {
    const event = await send('GET', '/v1/models', {});
    expect(event.body).toBeUndefined();
    expect(event.isBase64Encoded).toBe(false);
  });

  it.each(['application/json', 'text/plain; charset=utf-8', 'application/vnd.api+json', 'application/x-www-form-urlencoded'])(
    'passes a %s body as text',
    async (contentType) => {
      const event = await send('POST', '/', { 'content-type': contentType }, '{"q":"Grüße"}');
      expect(event.isBase64Encoded).toBe(false);
      expect(event.body).toBe('{"q":"Grüße"}');
    },
  );

  it('base64-encodes a binary body', async () => {
    const bytes = Buffer.from([0, 255, 1, 254, 10]);
    const event = await send('POST', '/', { 'content-type': 'application/octet-stream' }, bytes);
    expect(event.isBase64Encoded).toBe(true);
    expect(event.body).toBe(bytes.toString('base64'));
  });

  it('yields, through toGatewayRequest, the request the client sent', async () => {
    const body = '{"model":"mock/echo","messages":[{"role":"user","content":"héllo"}]}';
    for (const contentType of ['application/json', 'application/octet-stream']) {
      const event = await send('POST', '/v1/chat/completions?x=1', { 'content-type': contentType, Authorization: 'Bearer gw.abc' }, body);
      const request = toGatewayRequest(event);
      expect(request.method).toBe('POST');
      expect(request.path).toBe('/v1/chat/completions');
      expect(request.query.get('x')).toBe('1');
      expect(request.headers['authorization']).toBe('Bearer gw.abc');
      expect(bodyText(request)).toBe(body);
      expect(request.sourceIp).toBe('127.0.0.1');
    }
  });

  it('keeps a JSON body that is not UTF-8 as its bytes (base64), so the handler can refuse it', async () => {
    const bytes = Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d]);
    const event = await send('POST', '/v1/chat/completions', { 'content-type': 'application/json' }, bytes);
    expect(event.isBase64Encoded).toBe(true);
    expect([...toGatewayRequest(event).body]).toEqual([...bytes]);
  });

  it('reads a path with repeated slashes as a path, not as a URL naming a host', async () => {
    expect((await send('GET', '//v1/models', {})).rawPath).toBe('//v1/models');
  });
});
