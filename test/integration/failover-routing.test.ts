import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { apiError, chat, fallback, generationOf, startFailoverGateway, type FailoverGateway } from '../support/failover-gateway.ts';
import type { FakeUpstream } from '../support/fake-openai-upstream.ts';
import { readFixture } from '../support/fixtures.ts';
import type { Behaviour } from '../support/scripted-upstream.ts';
import type { TestGateway } from '../support/test-gateway.ts';

let setup: FailoverGateway;
let gateway: TestGateway;
let primary: FakeUpstream;
let backup: FakeUpstream;
let key: string;
let failoverProjectKey: string;
/** Each upstream request as `<provider>:<model it received>`, across both upstreams, in order. */
const log: string[] = [];
/** Keyed like the log; unlisted models answer 'ok'. Each test uses its own model ids: cool-down is per process. */
let behaviours: Record<string, Behaviour> = {};

beforeAll(async () => {
  setup = await startFailoverGateway(log, () => behaviours);
  ({ gateway, primary, backup, key, failoverProjectKey } = setup);
});

afterAll(async () => {
  await setup.close();
});

beforeEach(() => {
  log.length = 0;
  behaviours = {};
});

const generation = (id: string, projectKey = key) => generationOf(gateway, id, projectKey);

describe('failover with route "fallback"', () => {
  it.each([
    ['an upstream 408 (its own time-out)', 'm-408', 408],
    ['an upstream 429', 'm-429', 429],
    ['an upstream 500', 'm-500', 500],
    ['an upstream 503', 'm-503', 503],
    ['a dropped connection', 'm-drop', 'drop'],
    ['no answer within the first-byte time-out', 'm-silent', 'silent'],
    ['a JSON answer that broke off before its end (nothing had reached the client)', 'm-json-break', 'json-break'],
  ] as const)('moves on after %s to the other provider of the same model', async (_what, id, behaviour) => {
    behaviours = { [`openai:${id}`]: behaviour };
    const { response } = await gateway.openai(key).chat.completions.create(chat(`openai/${id}`, fallback), { headers: { 'x-request-id': `fo-${id}` } }).withResponse();

    expect(log).toEqual([`openai:${id}`, `backup:openai/${id}`]);
    expect(response.headers.get('x-gateway-model')).toBe(`backup/openai/${id}`);
    expect(await generation(`fo-${id}`)).toMatchObject({ model: `backup/openai/${id}`, provider: 'backup', fallback_attempts: 1, status: 'completed' });
  });

  it('tries the other providers of the model first, then each model of `models` in order, skipping models not allowed', async () => {
    behaviours = { 'openai:m-chain': 503, 'backup:openai/m-chain': 500, 'backup:openai/m-chain-c': 429 };
    const body = chat('openai/m-chain', { ...fallback, models: ['openai/not-allowed', 'backup/openai/m-chain-c', 'openai/m-chain-b'] });
    const { response } = await gateway.openai(key).chat.completions.create(body, { headers: { 'x-request-id': 'fo-chain' } }).withResponse();

    expect(log).toEqual(['openai:m-chain', 'backup:openai/m-chain', 'backup:openai/m-chain-c', 'openai:m-chain-b']);
    expect(response.headers.get('x-gateway-model')).toBe('openai/m-chain-b');
    expect(await generation('fo-chain')).toMatchObject({ model: 'openai/m-chain-b', fallback_attempts: 3 });
  });

  it('answers 429 with Retry-After and a message listing each attempt when the last target rate-limits', async () => {
    behaviours = { 'openai:m-all-429': 503, 'backup:openai/m-all-429': 429 };
    const error = await apiError(gateway.openai(key).chat.completions.create(chat('openai/m-all-429', fallback), { headers: { 'x-request-id': 'fo-all-429' } }));

    expect(error.status).toBe(429);
    expect(error.headers?.get('retry-after')).toBe('7');
    expect(error.message).toMatch(
      /All 2 attempts failed: "openai\/m-all-429": Provider "openai" failed with HTTP 503: openai overloaded \| "backup\/openai\/m-all-429": Provider "backup" is rate limiting requests: Rate limit reached/,
    );
    expect(await generation('fo-all-429')).toMatchObject({ status: 'failed', model: 'backup/openai/m-all-429', fallback_attempts: 1 });
  });

  it('answers 502 when the last target fails with a 5xx, even after a 429', async () => {
    behaviours = { 'openai:m-all-5xx': 429, 'backup:openai/m-all-5xx': 500 };
    const error = await apiError(gateway.openai(key).chat.completions.create(chat('openai/m-all-5xx', fallback)));

    expect(error.status).toBe(502);
    expect(error.code).toBe('upstream_error');
    expect(error.message).toContain('"backup/openai/m-all-5xx": Provider "backup" failed with HTTP 500: backup overloaded');
    expect(log).toEqual(['openai:m-all-5xx', 'backup:openai/m-all-5xx']);
  });

  it('passes an upstream 400 through without trying another target', async () => {
    behaviours = { 'openai:m-400': 400 };
    const response = await fetch(`${gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(chat('openai/m-400', fallback)),
    });

    expect(response.status).toBe(400);
    expect(await response.json()).toEqual(JSON.parse(readFixture('openai-chat/chat-error-400-unsupported-parameter.json')));
    expect(log).toEqual(['openai:m-400']);
  });

  it('refuses with 400 no_routable_model listing what it skipped when nothing remains', async () => {
    const error = await apiError(gateway.openai(key).chat.completions.create(chat('openai/m-alone', { ...fallback, models: ['openai/not-allowed'], provider: { ignore: ['openai'] } })));

    expect(error.status).toBe(400);
    expect(error.code).toBe('no_routable_model');
    expect(error.message).toContain('"openai/m-alone": in provider.ignore; "openai/not-allowed": not on the allowlist');
    expect(log).toEqual([]);
  });

  it('refuses an unknown provider preference with 400 naming it', async () => {
    const error = await apiError(gateway.openai(key).chat.completions.create(chat('openai/m-alone', { provider: { zdr: true } })));
    expect(error.status).toBe(400);
    expect(error.param).toBe('provider.zdr');
    expect(log).toEqual([]);
  });

  it('reads `provider: null` as no preferences and sends no routing field upstream', async () => {
    await gateway.openai(key).chat.completions.create(chat('openai/m-alone', { provider: null, route: 'fallback', models: ['openai/m-chain-b'] }));
    expect(log).toEqual(['openai:m-alone']);
    expect(Object.keys(primary.received.at(-1)?.body ?? {})).toEqual(['model', 'messages']);
  });

  it('tries a target that just failed last on the next request', async () => {
    behaviours = { 'openai:m-cool': 503 };
    await gateway.openai(key).chat.completions.create(chat('openai/m-cool', fallback));
    behaviours = {};
    const { response } = await gateway.openai(key).chat.completions.create(chat('openai/m-cool', fallback), { headers: { 'x-request-id': 'fo-cool' } }).withResponse();

    expect(log).toEqual(['openai:m-cool', 'backup:openai/m-cool', 'backup:openai/m-cool']);
    expect(response.headers.get('x-gateway-model')).toBe('backup/openai/m-cool');
    expect(await generation('fo-cool')).toMatchObject({ fallback_attempts: 0 });
  });

  it.each([
    ['a 429', 429, 'm-cool-429'],
    ['a dropped connection', 'drop', 'm-cool-drop'],
    ['a first-byte time-out', 'silent', 'm-cool-silent'],
  ] as const)('puts a target that failed with %s in cool-down: tried last on the next request', async (_name, behaviour, model) => {
    behaviours = { [`openai:${model}`]: behaviour };
    await gateway.openai(key).chat.completions.create(chat(`openai/${model}`, fallback));
    behaviours = {};
    await gateway.openai(key).chat.completions.create(chat(`openai/${model}`, fallback));
    expect(log).toEqual([`openai:${model}`, `backup:openai/${model}`, `backup:openai/${model}`]);
  });

  it("does not put a target in cool-down for the client's own mistake (400)", async () => {
    behaviours = { 'openai:m-cool-400': 400 };
    await gateway.openai(key).chat.completions.create(chat('openai/m-cool-400', fallback)).catch(() => undefined);
    behaviours = {};
    await gateway.openai(key).chat.completions.create(chat('openai/m-cool-400', fallback));
    expect(log).toEqual(['openai:m-cool-400', 'openai:m-cool-400']);
  });
});

describe('cool-down scope', () => {
  it("keeps one project's failed target first for another project", async () => {
    behaviours = { 'openai:m-shared': 429 };
    await gateway.openai(key).chat.completions.create(chat('openai/m-shared', fallback));
    behaviours = {};
    log.length = 0;
    await gateway.openai(failoverProjectKey).chat.completions.create(chat('openai/m-shared'));

    expect(log).toEqual(['openai:m-shared']);
  });
});

describe('when failover applies', () => {
  it('does not retry a 503 without `route` on a project without failover, and records no fallback', async () => {
    behaviours = { 'openai:m-off': 503 };
    const error = await apiError(gateway.openai(key).chat.completions.create(chat('openai/m-off', { models: ['openai/m-alone'] }), { headers: { 'x-request-id': 'fo-off' } }));

    expect(error.status).toBe(502);
    expect(log).toEqual(['openai:m-off']);
    expect(backup.received.some((request) => request.body.model === 'openai/m-off')).toBe(false);
    expect(await generation('fo-off')).toMatchObject({ status: 'failed', model: 'openai/m-off', fallback_attempts: 0 });
  });

  it('fails over without `route` on a project with failover enabled', async () => {
    behaviours = { 'openai:m-flag': 503 };
    const { response } = await gateway.openai(failoverProjectKey).chat.completions.create(chat('openai/m-flag')).withResponse();

    expect(log).toEqual(['openai:m-flag', 'backup:openai/m-flag']);
    expect(response.headers.get('x-gateway-model')).toBe('backup/openai/m-flag');
  });

  it('does not fail over once the first byte reached the client: the stream ends with an error event', async () => {
    behaviours = { 'openai:m-stream': 'stream-break' };
    const stream = await gateway.openai(key).chat.completions.create({ ...chat('openai/m-stream', fallback), stream: true });
    const contents: string[] = [];
    const failure = await (async () => {
      for await (const chunk of stream) contents.push(chunk.choices[0]?.delta.content ?? '');
    })().then(() => undefined, (thrown: unknown) => thrown);

    expect(contents).toEqual(['']);
    expect(failure).toBeInstanceOf(OpenAI.APIError);
    expect((failure as Error).message).toMatch(/Provider "openai" broke off the stream/);
    expect(log).toEqual(['openai:m-stream']);
  });
});

describe("`models` without `model` (OpenRouter's form): the first is the model, the rest its fallbacks", () => {
  const post = (body: Record<string, unknown>, requestId: string) =>
    fetch(`${gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'x-request-id': requestId },
      body: JSON.stringify({ messages: [{ role: 'user', content: 'hi' }], ...body }),
    });

  it('is answered by the first model, which the provider receives as `model`, without `models`', async () => {
    const response = await post({ models: ['openai/m-list-next', 'openai/m-list-first'] }, 'fo-list-first');

    expect(response.status).toBe(200);
    expect(response.headers.get('x-gateway-model')).toBe('openai/m-list-next');
    expect(primary.received.at(-1)?.body).toMatchObject({ model: 'm-list-next' });
    expect(primary.received.at(-1)?.body).not.toHaveProperty('models');
  });

  it('tries the next model when the first fails with `route: "fallback"`, each model once', async () => {
    behaviours = { 'openai:m-list-first': 500 };
    const response = await post({ models: ['openai/m-list-first', 'openai/m-list-next'], route: 'fallback' }, 'fo-list-fallback');

    expect(response.status).toBe(200);
    expect(log).toEqual(['openai:m-list-first', 'openai:m-list-next']);
    expect(await generation('fo-list-fallback')).toMatchObject({ model: 'openai/m-list-next', fallback_attempts: 1 });
  });

  it('tries only the first without `route` on a project without failover, as `model` with `models`', async () => {
    behaviours = { 'openai:m-list-off': 503 };
    const response = await post({ models: ['openai/m-list-off', 'openai/m-list-next'] }, 'fo-list-off');

    expect(response.status).toBe(502);
    expect(log).toEqual(['openai:m-list-off']);
  });

  it('is still 400 missing_model when `models` is empty', async () => {
    const response = await post({ models: [] }, 'fo-list-empty');

    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: 'missing_model', param: 'model' } });
  });
});

