import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAiUpstream, sendJson, type FakeUpstream } from '../support/fake-openai-upstream.ts';
import { readFixture } from '../support/fixtures.ts';
import { createProjectWithKey, startTestGateway, type TestGateway } from '../support/test-gateway.ts';

/**
 * OpenRouter's key and credit checks (`GET /v1/key`, `/v1/auth/key`, `/v1/credits`), over real HTTP: the
 * figures come from the project's stored spend and balance, and the requests are admitted as every other
 * read endpoint is (docs/decisions/key-and-credits.md).
 */
let gateway: TestGateway;
let upstream: FakeUpstream;

beforeAll(async () => {
  upstream = await startFakeOpenAiUpstream();
  // The fixture reports 16 prompt and 363 completion tokens.
  upstream.answerWith((_request, response) => sendJson(response, 200, readFixture('openai-chat/chat-nonstream-text-usage-details.json')));
  gateway = await startTestGateway();
});

afterAll(async () => {
  await gateway.close();
  await upstream.close();
});

// 1,000 and 2,000 micro-USD per 1k tokens: 16 × 1,000 + 363 × 2,000 nano-USD for one answer.
const models = [{ slug: 'openai/gpt-4o-mini', inputMicrosPer1k: 1_000, outputMicrosPer1k: 2_000 }];
const ANSWER_COST_USD = 0.000742;

const newProject = (projectId: string) => createProjectWithKey(gateway, { projectId, baseUrl: upstream.baseUrl, models });
const update = (projectId: string, changes: Record<string, unknown>) => gateway.admin({ command: 'project.update', projectId, ...changes });
const createKey = (projectId: string, options: Record<string, unknown> = {}) =>
  gateway.admin<{ key: string; id: string; hint: string }>({ command: 'key.create', projectId, ...options });

async function get(path: string, apiKey?: string) {
  const response = await fetch(`${gateway.url}${path}`, { headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {} });
  const text = await response.text();
  return { status: response.status, text, body: JSON.parse(text) as { data: Record<string, unknown>; error?: { code: string; type: string } } };
}

/** One chat request, then waits until the writer has added its cost to the project's spend. */
async function spendOnce(apiKey: string, spentBefore = 0): Promise<void> {
  await gateway.openai(apiKey).chat.completions.create({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], max_tokens: 400 });
  await expect.poll(async () => (await get('/v1/credits', apiKey)).body.data.total_usage, { timeout: 5_000, interval: 50 }).toBeCloseTo(spentBefore + ANSWER_COST_USD, 9);
}

describe('GET /v1/key', () => {
  it("answers a prepaid project's key in OpenRouter's shape: its name as label, the balance as limit, the project's spend as usage", async () => {
    await newProject('prepaid');
    const { key } = await createKey('prepaid', { name: 'ci-runner' });
    await update('prepaid', { balanceUsd: '5' });

    expect((await get('/v1/key', key)).body).toEqual({
      data: {
        label: 'ci-runner',
        limit: 5,
        limit_remaining: 5,
        limit_reset: null,
        usage: 0,
        usage_daily: null,
        usage_weekly: null,
        usage_monthly: null,
        is_free_tier: false,
        is_provisioning_key: false,
        is_management_key: false,
        expires_at: null,
      },
    });

    await spendOnce(key);
    const { data } = (await get('/v1/key', key)).body;
    expect(data).toMatchObject({ limit: 5, limit_remaining: 5 - ANSWER_COST_USD, usage: ANSWER_COST_USD });
  });

  it('shows no limit (null, not 0) for a postpaid project, and its spend as usage', async () => {
    const key = await newProject('postpaid');
    await spendOnce(key);

    const { data } = (await get('/v1/key', key)).body;
    expect(data).toMatchObject({ limit: null, limit_remaining: null, limit_reset: null, usage: ANSWER_COST_USD });
  });

  it('answers the same at OpenRouter\'s older path, /v1/auth/key', async () => {
    const key = await newProject('older-path');
    const current = await get('/v1/key', key);
    const older = await get('/v1/auth/key', key);
    expect(older.status).toBe(200);
    expect(older.body).toEqual(current.body);
  });

  it('never shows the key, its hint or its id, nor anything of the project\'s other keys', async () => {
    await newProject('discreet');
    const caller = await createKey('discreet', { name: 'mine' });
    const other = await createKey('discreet', { name: 'someone-else' });

    const { text } = await get('/v1/key', caller.key);

    for (const secret of [caller.key, caller.hint, caller.id, other.key, other.hint, other.id, 'someone-else']) expect(text).not.toContain(secret);
  });

  it("gives the most requests a minute the key may send: its own rpm or its project's, the lower; none when neither is set", async () => {
    await newProject('limited');
    const { key } = await createKey('limited', { rpm: 30 });
    expect((await get('/v1/key', key)).body.data.rate_limit).toEqual({ requests: 30, interval: '1m' });

    await update('limited', { rpm: 12 });
    expect((await get('/v1/key', key)).body.data.rate_limit).toEqual({ requests: 12, interval: '1m' });

    const unlimited = await newProject('unlimited');
    expect((await get('/v1/key', unlimited)).body.data).not.toHaveProperty('rate_limit');
  });

  it('writes amounts as exact decimals, never in exponent notation', async () => {
    const key = await newProject('tiny-balance');
    await update('tiny-balance', { balanceUsd: '0.00000015' });

    const { text } = await get('/v1/key', key);

    expect(text).toContain('"limit":0.00000015,');
    expect(text).toContain('"limit_remaining":0.00000015,');
  });
});

describe('GET /v1/credits', () => {
  it("answers a prepaid project's credits and usage, which differ by what its balance has left", async () => {
    const key = await newProject('credits');
    await update('credits', { balanceUsd: '2' });
    expect((await get('/v1/credits', key)).body).toEqual({ data: { total_credits: 2, total_usage: 0 } });

    await spendOnce(key);
    const { data } = (await get('/v1/credits', key)).body;
    expect(data).toEqual({ total_credits: 2, total_usage: ANSWER_COST_USD });
    expect((await get('/v1/key', key)).body.data.limit_remaining).toBeCloseTo(2 - ANSWER_COST_USD, 9);
  });

  it('adds a credit to the total, and counts the spend before a balance was set as credit used', async () => {
    const key = await newProject('topped-up');
    await spendOnce(key);

    await update('topped-up', { balanceUsd: '1' });
    expect((await get('/v1/credits', key)).body.data).toEqual({ total_credits: 1 + ANSWER_COST_USD, total_usage: ANSWER_COST_USD });

    await update('topped-up', { creditUsd: '0.5' });
    expect((await get('/v1/credits', key)).body.data).toEqual({ total_credits: 1.5 + ANSWER_COST_USD, total_usage: ANSWER_COST_USD });
  });

  it('shows a postpaid project its usage as its credits: nothing left over, nothing overdrawn', async () => {
    const key = await newProject('invoiced');
    await spendOnce(key);

    expect((await get('/v1/credits', key)).body).toEqual({ data: { total_credits: ANSWER_COST_USD, total_usage: ANSWER_COST_USD } });
  });
});

describe('admission of the key and credit checks', () => {
  const paths = ['/v1/key', '/v1/auth/key', '/v1/credits'];

  it.each(paths)('%s refuses a missing key and a wrong one with 401, as every endpoint does', async (path) => {
    for (const apiKey of [undefined, 'gw.0000000000000000000000000000000000000000000']) {
      const { status, body } = await get(path, apiKey);
      expect(status).toBe(401);
      expect(body.error).toMatchObject({ type: 'authentication_error', code: 'invalid_api_key' });
    }
  });

  it.each(paths)('%s refuses a disabled key with 403 and a revoked one with 401', async (path) => {
    const projectId = `refusing-${paths.indexOf(path)}`;
    await newProject(projectId);
    const disabled = await createKey(projectId);
    const revoked = await createKey(projectId);
    await gateway.admin({ command: 'key.update', projectId, keyId: disabled.id, enabled: false });
    await gateway.admin({ command: 'key.revoke', projectId, keyId: revoked.id });

    expect(await get(path, disabled.key)).toMatchObject({ status: 403, body: { error: { type: 'permission_error', code: 'key_disabled' } } });
    expect(await get(path, revoked.key)).toMatchObject({ status: 401, body: { error: { code: 'invalid_api_key' } } });
  });

  it('belongs to the access policy\'s "credits" group: refused where the policy leaves it out, answered where it names it', async () => {
    const key = await newProject('policy');
    await update('policy', { allowedEndpoints: ['chat', 'models', 'generation'] });
    for (const path of paths) {
      expect(await get(path, key)).toMatchObject({ status: 403, body: { error: { code: 'endpoint_not_allowed' } } });
    }

    await update('policy', { allowedEndpoints: ['credits'] });
    for (const path of paths) expect((await get(path, key)).status).toBe(200);
  });

  it('is answered by the gateway, never passed through to the provider, on a project that passes other routes through', async () => {
    const key = await newProject('passing');
    await update('passing', { passThrough: true });
    const calledBefore = upstream.received.length;

    for (const path of paths) expect((await get(path, key)).status).toBe(200);

    expect(upstream.received.length).toBe(calledBefore);
  });
});
