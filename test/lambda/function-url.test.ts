import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bodyText } from '../../shared/http/gateway-http.ts';
import { toGatewayRequest, toStreamingResult } from '../../shared/lambda/function-url.ts';

function event(overrides: Partial<APIGatewayProxyEventV2> = {}): APIGatewayProxyEventV2 {
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath: '/v1/chat/completions',
    rawQueryString: '',
    headers: {},
    requestContext: {
      accountId: 'anonymous',
      apiId: 'abc123',
      domainName: 'abc123.lambda-url.eu-west-1.on.aws',
      domainPrefix: 'abc123',
      http: { method: 'POST', path: '/v1/chat/completions', protocol: 'HTTP/1.1', sourceIp: '203.0.113.9', userAgent: 'curl/8' },
      requestId: 'req-1',
      routeKey: '$default',
      stage: '$default',
      time: '01/Jan/2025:00:00:00 +0000',
      timeEpoch: 1_735_689_600_000,
    },
    isBase64Encoded: false,
    ...overrides,
  };
}

describe('toGatewayRequest', () => {
  it('takes method, path and source IP from the event', () => {
    const request = toGatewayRequest(event());
    expect(request.method).toBe('POST');
    expect(request.path).toBe('/v1/chat/completions');
    expect(request.sourceIp).toBe('203.0.113.9');
  });

  it('upper-cases the method', () => {
    const base = event();
    const request = toGatewayRequest({ ...base, requestContext: { ...base.requestContext, http: { ...base.requestContext.http, method: 'get' } } });
    expect(request.method).toBe('GET');
  });

  it('lower-cases header names and keeps their values as they are', () => {
    const request = toGatewayRequest(event({ headers: { Authorization: 'Bearer gw.X', 'Content-Type': 'application/json', 'x-request-id': 'Abc' } }));
    expect(request.headers).toEqual({ authorization: 'Bearer gw.X', 'content-type': 'application/json', 'x-request-id': 'Abc' });
  });

  it('drops headers without a value', () => {
    expect(toGatewayRequest(event({ headers: { a: '1', b: undefined } })).headers).toEqual({ a: '1' });
  });

  it('copes with an event without headers, query or body', () => {
    const base = event();
    const bare: APIGatewayProxyEventV2 = { ...base, headers: {} };
    delete bare.body;
    Reflect.deleteProperty(bare, 'rawQueryString');
    const request = toGatewayRequest(bare);
    expect(request.headers).toEqual({});
    expect(request.body.byteLength).toBe(0);
    expect([...request.query]).toEqual([]);
  });

  it('parses the raw query string, keeping repeated parameters and decoding escapes', () => {
    const request = toGatewayRequest(event({ rawQueryString: 'a=1&b=two%20words&a=3&empty=' }));
    expect(request.query.getAll('a')).toEqual(['1', '3']);
    expect(request.query.get('b')).toBe('two words');
    expect(request.query.get('empty')).toBe('');
    expect(request.query.has('missing')).toBe(false);
  });

  it('passes a text body through as it is', () => {
    expect(bodyText(toGatewayRequest(event({ body: '{"model":"mock/echo"}' })))).toBe('{"model":"mock/echo"}');
  });

  it('decodes a base64 body to its bytes, and its text as UTF-8', () => {
    const body = Buffer.from('{"messages":[{"content":"Grüße 👋"}]}', 'utf8').toString('base64');
    expect(bodyText(toGatewayRequest(event({ body, isBase64Encoded: true })))).toBe('{"messages":[{"content":"Grüße 👋"}]}');
  });

  it('round-trips any bytes through base64, unchanged', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 256 }), (bytes) => {
        const body = Buffer.from(bytes).toString('base64');
        expect([...toGatewayRequest(event({ body, isBase64Encoded: true })).body]).toEqual([...bytes]);
      }),
    );
  });

  it('refuses a body that is not UTF-8 with a 400 when read as text', () => {
    const request = toGatewayRequest(event({ body: Buffer.from([0x7b, 0xff, 0xfe, 0x7d]).toString('base64'), isBase64Encoded: true }));
    expect(() => bodyText(request)).toThrow(expect.objectContaining({ status: 400, code: 'invalid_utf8' }));
  });
});

describe('toStreamingResult', () => {
  it('carries status, headers and body over unchanged', () => {
    const body = new ReadableStream<Uint8Array>();
    const result = toStreamingResult({ status: 201, headers: { 'content-type': 'text/event-stream' }, body });
    expect(result).toEqual({ statusCode: 201, headers: { 'content-type': 'text/event-stream' }, body });
    expect(result.body).toBe(body);
  });
});
