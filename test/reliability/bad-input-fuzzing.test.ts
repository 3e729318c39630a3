import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createFakeGateway, FAKE_KEY, fakeProvider } from '../support/fake-gateway-services.ts';
import { readFixture } from '../support/fixtures.ts';
import { routeGroupsUnderTest, routesOf } from './route-groups-under-test.ts';

/**
 * Random bodies, headers and query strings on every route of every route group: the answer is never a
 * 5xx and never hangs, and every refusal is in the route group's own error format.
 */
const gateway = () =>
  createFakeGateway({
    providers: [fakeProvider('openai', ['openai-chat']), fakeProvider('anthropic', ['anthropic-messages'], 'x-api-key')],
    models: [{ slug: 'openai/gpt-4o-mini' }, { slug: 'anthropic/claude-haiku-4-5' }],
    fetch: async (url) =>
      url.endsWith('/messages') || url.endsWith('/count_tokens')
        ? new Response(readFixture('anthropic/messages-nonstream-text.json'), { headers: { 'content-type': 'application/json' } })
        : new Response(readFixture('openai-chat/chat-nonstream-text-usage-details.json'), { headers: { 'content-type': 'application/json' } }),
  });

const model = fc.constantFrom('openai/gpt-4o-mini', 'anthropic/claude-haiku-4-5', 'gpt-4o-mini', 'nope/none', '', 42, null);
const message = fc.oneof(
  fc.record({ role: fc.constantFrom('user', 'assistant', 'system', 'tool', 'developer', 'bogus'), content: fc.oneof(fc.string(), fc.jsonValue({ maxDepth: 3 })) }),
  fc.jsonValue({ maxDepth: 3 }),
);
const jsonBody = fc.oneof(
  fc.record(
    {
      model,
      messages: fc.oneof(fc.array(message, { maxLength: 4 }), fc.jsonValue({ maxDepth: 2 })),
      // The editor's Responses-shaped bodies (and any other route's stray field).
      input: fc.oneof(fc.array(fc.jsonValue({ maxDepth: 3 }), { maxLength: 3 }), fc.jsonValue({ maxDepth: 2 })),
      max_tokens: fc.oneof(fc.integer({ min: -5, max: 100_000 }), fc.string()),
      stream: fc.constant(false),
      tools: fc.jsonValue({ maxDepth: 3 }),
      provider: fc.jsonValue({ maxDepth: 2 }),
      models: fc.jsonValue({ maxDepth: 2 }),
    },
    { requiredKeys: [] },
  ),
  fc.jsonValue({ maxDepth: 4 }),
).map((value) => Buffer.from(JSON.stringify(value)));
const body = fc.oneof(jsonBody, fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.from(bytes)), fc.string().map((text) => Buffer.from(text)));
const headerName = fc.constantFrom('x-request-id', 'x-environment', 'anthropic-version', 'anthropic-beta', 'user-agent', 'content-type', 'x-title', 'cloudfront-viewer-address');
const headers = fc.dictionary(headerName, fc.string({ maxLength: 300 }), { maxKeys: 4 });
const query = fc.array(fc.tuple(fc.constantFrom('id', 'x', 'model', ''), fc.string({ maxLength: 50 })), { maxLength: 3 }).map((pairs) => new URLSearchParams(pairs));

describe('bad input on every route', () => {
  for (const group of routeGroupsUnderTest) {
    for (const { method, path } of routesOf(group.routes)) {
      it(`${group.name}: ${method} ${path} never answers 5xx, and refuses in its own error format`, async () => {
        const serve = group.create(gateway().services);
        await fc.assert(
          fc.asyncProperty(body, headers, query, async (requestBody, requestHeaders, requestQuery) => {
            const response = await serve({ method, path, query: requestQuery, headers: { ...requestHeaders, authorization: `Bearer ${FAKE_KEY}` }, body: requestBody, sourceIp: '203.0.113.1' });
            expect(response.status).toBeLessThan(500);
            if (response.status >= 400) expect(group.isErrorBody(JSON.parse(String(response.body)))).toBe(true);
          }),
          { numRuns: 60 },
        );
      });
    }
  }
});
