import { describe, expect, it, vi } from 'vitest';
import { CORS_HEADERS, optionsResponse } from '../../shared/http/cors.ts';
import type { GatewayRequest } from '../../shared/http/gateway-http.ts';
import { createMcpRouteGroup } from '../../shared/endpoints/mcp-route-group.ts';
import { createOpenAiRouteGroup } from '../../shared/endpoints/openai-route-group.ts';
import { createFakeGateway } from '../support/fake-gateway-services.ts';

function request(method: string, path: string, headers: Record<string, string> = {}): GatewayRequest {
  return { method, path, query: new URLSearchParams(), headers, body: new Uint8Array(), sourceIp: '203.0.113.9' };
}

const preflight = (path: string, asked = 'authorization, content-type') =>
  request('OPTIONS', path, { origin: 'https://app.example', 'access-control-request-method': 'POST', 'access-control-request-headers': asked });

describe('optionsResponse', () => {
  it("answers a browser's preflight with 204, any origin, the path's methods and the headers it asked for", () => {
    const answer = optionsResponse(preflight('/v1/chat/completions', 'authorization,content-type,x-stainless-os'), ['POST']);
    expect(answer).toMatchObject({ status: 204, body: '' });
    expect(answer.headers).toEqual({
      allow: 'POST, OPTIONS',
      'access-control-allow-origin': '*',
      'access-control-allow-methods': 'POST, OPTIONS',
      'access-control-allow-headers': 'authorization,content-type,x-stainless-os',
      'access-control-max-age': '86400',
    });
  });

  it('names HEAD beside GET, and answers a plain OPTIONS (no preflight) with the methods only', () => {
    const answer = optionsResponse(request('OPTIONS', '/v1/models'), ['GET']);
    expect(answer.status).toBe(204);
    expect(answer.headers).toEqual({ allow: 'GET, HEAD, OPTIONS', 'access-control-allow-origin': '*' });
  });

  it('leaves out a requested header list that is not one (no header can be smuggled into the answer)', () => {
    const answer = optionsResponse(preflight('/v1/messages', 'x-api-key\r\nset-cookie: a=b'), ['POST']);
    expect(answer.headers['access-control-allow-headers']).toBeUndefined();
    expect(answer.headers['access-control-allow-methods']).toBe('POST, OPTIONS');
  });
});

describe('CORS in a route group', () => {
  const fetch = vi.fn(async () => new Response('{}'));

  it('answers a preflight before any key is asked for, and calls no upstream', async () => {
    const { services } = createFakeGateway({ providers: [], models: [], fetch });
    const serve = createMcpRouteGroup(services, { upstreamTimeoutMs: 5_000 });
    const answer = await serve(preflight('/mcp/v1', 'authorization, content-type, mcp-protocol-version, mcp-session-id'));
    expect(answer.status).toBe(204);
    expect(answer.headers).toMatchObject({
      'access-control-allow-origin': '*',
      'access-control-allow-methods': 'POST, DELETE, OPTIONS',
      'access-control-allow-headers': 'authorization, content-type, mcp-protocol-version, mcp-session-id',
    });
    expect(fetch).not.toHaveBeenCalled();
  });

  it('lets a browser read every answer, an error included, and its headers', async () => {
    const { services } = createFakeGateway({ providers: [], models: [], fetch });
    const serve = createOpenAiRouteGroup(services);
    for (const answer of [await serve(request('POST', '/v1/chat/completions', { authorization: 'Bearer gw.wrong' })), await serve(request('GET', '/v1/nowhere'))]) {
      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect(answer.headers).toMatchObject(CORS_HEADERS);
    }
  });
});
