import { describe, expect, it } from 'vitest';
import { createFakeGateway, fakeProvider } from '../support/fake-gateway-services.ts';
import { routeGroupsUnderTest, routesOf } from './route-groups-under-test.ts';

const gateway = () => createFakeGateway({ providers: [fakeProvider('openai', ['openai-chat'])], models: [{ slug: 'openai/gpt-4o-mini' }], fetch: async () => new Response('{}') });

describe('authentication, walked over every route of every route group', () => {
  for (const group of routeGroupsUnderTest) {
    const routes = routesOf(group.routes).filter((route) => route.path !== '/health');

    it(`${group.name}: has routes to walk`, () => {
      expect(routes.length).toBeGreaterThan(0);
    });

    it.each(routes)(`${group.name}: $method $path answers 401 in the group's error format without a key, and with a wrong one`, async ({ method, path }) => {
      const serve = group.create(gateway().services);
      for (const headers of [{}, { authorization: 'Bearer gw.0000000000000000000000000000000000000000000' }, { authorization: 'Basic abc' }]) {
        const response = await serve({ method, path, query: new URLSearchParams(), headers, body: Buffer.from('{"model":"openai/gpt-4o-mini","messages":[]}'), sourceIp: '203.0.113.1' });
        expect(response.status).toBe(401);
        expect(group.isErrorBody(JSON.parse(String(response.body)))).toBe(true);
      }
    });
  }

  it('serves /health, and only /health, without a key', async () => {
    const serve = routeGroupsUnderTest[0]?.create(gateway().services);
    const response = await serve?.({ method: 'GET', path: '/health', query: new URLSearchParams(), headers: {}, body: Buffer.alloc(0), sourceIp: '203.0.113.1' });
    expect(response?.status).toBe(200);
  });
});
