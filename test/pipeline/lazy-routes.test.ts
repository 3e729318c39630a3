import { describe, expect, it } from 'vitest';
import { MODEL_API_METHODS } from '../../shared/endpoints/model-api-methods.ts';
import { modelApiRoutes } from '../../shared/endpoints/model-api-routes.ts';
import type { GatewayRequest } from '../../shared/http/gateway-http.ts';
import type { GatewayServices } from '../../shared/pipeline/gateway-services.ts';
import { lazyRoutes } from '../../shared/pipeline/lazy-routes.ts';
import type { RouteTable } from '../../shared/pipeline/route-group.ts';

const request = { method: 'POST', path: '/x', query: new URLSearchParams(), headers: {}, body: new Uint8Array(), sourceIp: '127.0.0.1' } as GatewayRequest;
const services = {} as GatewayServices;
const route = { requestId: 'r', receivedAt: 0 };

describe('lazyRoutes', () => {
  it('declares exactly the paths and methods of the model API routes it loads', () => {
    expect(Object.fromEntries(Object.entries(modelApiRoutes).map(([path, methods]) => [path, Object.keys(methods)]))).toEqual(
      Object.fromEntries(Object.entries(MODEL_API_METHODS).map(([path, methods]) => [path, [...methods]])),
    );
  });

  it('loads the routes once, on the first request, and hands each request to its handler', async () => {
    let loads = 0;
    const table = lazyRoutes({ '/x': ['POST'] }, async () => {
      loads += 1;
      return { '/x': { POST: async () => ({ status: 201, headers: {}, body: 'made' }) } } satisfies RouteTable;
    });
    expect(loads).toBe(0);
    await table['/x']?.POST?.(request, services, route);
    const answer = await table['/x']?.POST?.(request, services, route);
    expect(answer?.status).toBe(201);
    expect(loads).toBe(1);
  });

  it('tries a failed load again on the next request', async () => {
    let loads = 0;
    const table = lazyRoutes({ '/x': ['POST'] }, async () => {
      loads += 1;
      if (loads === 1) throw new Error('chunk missing');
      return { '/x': { POST: async () => ({ status: 200, headers: {}, body: '' }) } };
    });
    await expect(table['/x']?.POST?.(request, services, route)).rejects.toThrow('chunk missing');
    expect((await table['/x']?.POST?.(request, services, route))?.status).toBe(200);
  });
});
