import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiError, awaitFreshWindow, expectOpenAiError, partition } from '../support/admission.ts';
import { startFakeOpenAiUpstream, sendJson, type FakeUpstream } from '../support/fake-openai-upstream.ts';
import { readFixture } from '../support/fixtures.ts';
import { createProjectWithKey, startTestGateway, type TestGateway } from '../support/test-gateway.ts';

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

// 1,000 and 2,000 micro-USD per 1k tokens: 1,000 and 2,000 nano-USD per token.
const models = [{ slug: 'openai/gpt-4o-mini', inputMicrosPer1k: 1_000, outputMicrosPer1k: 2_000 }];
const ask = (maxTokens = 400) => ({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user' as const, content: 'hi' }], max_tokens: maxTokens });
// The worst case bounds the prompt by the body's bytes plus the chat template's 100 tokens, plus max_tokens of output.
const PROMPT_BOUND_TOKENS = Buffer.byteLength(JSON.stringify(ask())) + 100;
const WORST_CASE_NANOS = PROMPT_BOUND_TOKENS * 1_000 + 400 * 2_000;
const REAL_COST_NANOS = 16 * 1_000 + 363 * 2_000;

const newProject = (projectId: string) => createProjectWithKey(gateway, { projectId, baseUrl: upstream.baseUrl, models });
const update = (projectId: string, changes: Record<string, unknown>) => gateway.admin({ command: 'project.update', projectId, ...changes });
const chat = (key: string, body: { model: string; messages: Array<{ role: 'user'; content: string }>; max_tokens?: number } = ask(), headers: Record<string, string> = {}) =>
  gateway.openai(key, { defaultHeaders: headers }).chat.completions.create(body).withResponse();
const balanceOf = async (projectId: string) =>
  gateway.admin<{ balance_usd: string | null; spent_usd: string; request_count: number }>({ command: 'project.get', projectId });

describe('429: requests and tokens per minute', () => {
  it('admits exactly the project rpm out of 50 parallel requests and refuses the rest with Retry-After', { timeout: 30_000 }, async () => {
    const key = await newProject('busy');
    await update('busy', { rpm: 10 });
    await awaitFreshWindow();
    const calledBefore = upstream.received.length;

    const { admitted, refused } = partition(await Promise.allSettled(Array.from({ length: 50 }, () => chat(key))));

    expect(admitted).toHaveLength(10);
    expect(upstream.received.length - calledBefore).toBe(10);
    const remaining = admitted.map(({ response }) => response.headers.get('x-ratelimit-remaining-requests'));
    expect(remaining.sort()).toEqual(['0', '1', '2', '3', '4', '5', '6', '7', '8', '9']);
    for (const { response } of admitted) {
      expect(response.headers.get('x-ratelimit-limit-requests')).toBe('10');
      expect(response.headers.get('x-ratelimit-reset-requests')).toMatch(/^\d+s$/);
    }
    expect(refused).toHaveLength(40);
    for (const error of refused) {
      expectOpenAiError(error, 429, 'rate_limit_error', 'requests_rate_limited');
      const retryAfter = Number(error.headers?.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(error.headers?.get('x-ratelimit-limit-requests')).toBe('10');
      expect(error.headers?.get('x-ratelimit-remaining-requests')).toBe('0');
      expect(error.headers?.get('x-ratelimit-reset-requests')).toBe(`${retryAfter}s`);
    }

    // "none" clears the limit at once, within the same window.
    await update('busy', { rpm: 'none' });
    const { response } = await chat(key);
    expect(response.status).toBe(200);
    expect(response.headers.get('x-ratelimit-limit-requests')).toBeNull();
  });

  it("limits a key with its own rpm and leaves the project's other keys alone", { timeout: 30_000 }, async () => {
    const otherKey = await newProject('keyed');
    const limited = await gateway.admin<{ id: string; key: string; rpm: number }>({ command: 'key.create', projectId: 'keyed', rpm: 2 });
    expect(limited.rpm).toBe(2);
    await awaitFreshWindow();

    await chat(limited.key);
    await chat(limited.key);
    const error = await apiError(chat(limited.key));
    const others = await Promise.all([chat(otherKey), chat(otherKey), chat(otherKey)]);

    expectOpenAiError(error, 429, 'rate_limit_error', 'requests_rate_limited');
    expect(error.message).toMatch(/2 requests per minute of this key/);
    expect(others.map(({ response }) => response.status)).toEqual([200, 200, 200]);

    await gateway.admin({ command: 'key.update', projectId: 'keyed', keyId: limited.id, rpm: 'none' });
    expect((await chat(limited.key)).response.status).toBe(200);
  });

  it('counts only the prompt toward tpm up front when the request sets no max_tokens', { timeout: 30_000 }, async () => {
    const key = await newProject('uncapped');
    await update('uncapped', { tpm: 1_000 });
    await awaitFreshWindow();

    const { max_tokens: _none, ...uncapped } = ask();
    const { response } = await chat(key, uncapped);

    expect(response.status).toBe(200);
    expect(response.headers.get('x-ratelimit-remaining-tokens')).toBe('999');
  });

  it('refuses with tokens_rate_limited once the prompt estimate plus max_tokens would pass the project tpm', { timeout: 30_000 }, async () => {
    const key = await newProject('wordy');
    await update('wordy', { tpm: 500 });
    await awaitFreshWindow();

    // 1 + 1,000 estimated tokens: more than one request may ever use.
    const tooLarge = await apiError(chat(key, ask(1_000)));
    expectOpenAiError(tooLarge, 429, 'rate_limit_error', 'tokens_rate_limited');
    expect(tooLarge.message).toMatch(/needs about 1001 tokens, more than the 500 tokens per minute of this project allows/);

    // Each request is charged 101 estimated tokens, then corrected to its real 379: 101, 379 + 101, 758 + 101.
    const first = await chat(key, ask(100));
    await chat(key, ask(100));
    const refused = await apiError(chat(key, ask(100)));

    expect(first.response.headers.get('x-ratelimit-limit-tokens')).toBe('500');
    expect(first.response.headers.get('x-ratelimit-remaining-tokens')).toBe('399');
    expectOpenAiError(refused, 429, 'rate_limit_error', 'tokens_rate_limited');
    expect(refused.headers?.get('retry-after')).toMatch(/^\d+$/);
    expect(refused.headers?.get('x-ratelimit-remaining-tokens')).toBe('0');

    await update('wordy', { tpm: 'none' });
    expect((await chat(key, ask(100))).response.status).toBe(200);
  });
});

describe('402: prepaid balance', () => {
  it("refuses a request whose worst case the balance cannot cover, before any upstream call", async () => {
    const key = await newProject('broke');
    await update('broke', { balanceUsd: String((WORST_CASE_NANOS - 1) / 1e9) });
    const calledBefore = upstream.received.length;

    const error = await apiError(chat(key));

    expectOpenAiError(error, 402, 'insufficient_quota', 'insufficient_balance');
    expect(error.message).toContain(`${WORST_CASE_NANOS / 1e9} USD: the prompt plus its most output tokens`);
    expect(upstream.received.length).toBe(calledBefore);
    expect((await balanceOf('broke')).balance_usd).toBe(String((WORST_CASE_NANOS - 1) / 1e9));
  });

  it('admits at most as many parallel requests as the balance covers and settles each to its real cost', async () => {
    const key = await newProject('prepaid');
    await update('prepaid', { balanceUsd: String((2 * WORST_CASE_NANOS) / 1e9) });
    await update('prepaid', { creditUsd: String((3 * WORST_CASE_NANOS) / 1e9) });
    // Exactly 5 worst cases.
    expect((await balanceOf('prepaid')).balance_usd).toBe(String((5 * WORST_CASE_NANOS) / 1e9));

    const { admitted, refused } = partition(await Promise.allSettled(Array.from({ length: 20 }, () => chat(key))));
    await gateway.host.drainUsage();

    expect(admitted).toHaveLength(5);
    expect(refused).toHaveLength(15);
    for (const error of refused) expectOpenAiError(error, 402, 'insufficient_quota', 'insufficient_balance');
    const project = await balanceOf('prepaid');
    // The reservations were settled to the real cost, which the worst case bounded: the balance never went below zero.
    expect(project).toMatchObject({ balance_usd: String((5 * WORST_CASE_NANOS - 5 * REAL_COST_NANOS) / 1e9), spent_usd: '0.00371', request_count: 5 });
    expect(Number(project.balance_usd)).toBeGreaterThan(0);
  });

  it('never refuses a postpaid project, however large the worst case, and still meters it', async () => {
    const key = await newProject('postpaid');

    for (let request = 0; request < 3; request += 1) expect((await chat(key, ask(1_000_000))).response.status).toBe(200);
    await gateway.host.drainUsage();

    expect(await balanceOf('postpaid')).toMatchObject({ balance_usd: null, spent_usd: '0.002226', request_count: 3 });
  });

  it('turns a refused prepaid project postpaid with balanceUsd "none"', async () => {
    const key = await newProject('lapsed-prepaid');
    await update('lapsed-prepaid', { balanceUsd: '0' });
    expectOpenAiError(await apiError(chat(key)), 402, 'insufficient_quota', 'insufficient_balance');

    await update('lapsed-prepaid', { balanceUsd: 'none' });
    expect((await chat(key)).response.status).toBe(200);
    await gateway.host.drainUsage();

    expect(await balanceOf('lapsed-prepaid')).toMatchObject({ balance_usd: null, spent_usd: '0.000742', request_count: 1 });
  });
});

describe('403: refused by the project', () => {
  it('refuses a disabled key with key_disabled until it is enabled again', async () => {
    await newProject('switches');
    const { id, key } = await gateway.admin<{ id: string; key: string }>({ command: 'key.create', projectId: 'switches', name: 'ci' });

    await gateway.admin({ command: 'key.update', projectId: 'switches', keyId: id, enabled: false });
    expectOpenAiError(await apiError(chat(key)), 403, 'permission_error', 'key_disabled');

    await gateway.admin({ command: 'key.update', projectId: 'switches', keyId: id, enabled: true });
    expect((await chat(key)).response.status).toBe(200);
  });

  it("refuses a removed member's keys with member_removed until the member is restored", async () => {
    const ownKey = await newProject('team');
    const alice = await gateway.admin<{ key: string }>({ command: 'key.create', projectId: 'team', member: 'alice' });
    expect((await chat(alice.key)).response.status).toBe(200);

    await gateway.admin({ command: 'member.remove', projectId: 'team', member: 'alice' });
    const error = await apiError(chat(alice.key));
    expectOpenAiError(error, 403, 'permission_error', 'member_removed');
    expect(error.message).toMatch(/"alice"/);
    expect((await chat(ownKey)).response.status).toBe(200);

    await gateway.admin({ command: 'member.restore', projectId: 'team', member: 'alice' });
    expect((await chat(alice.key)).response.status).toBe(200);
  });

  it('refuses a client address outside the allowed CIDR blocks with ip_not_allowed', async () => {
    const key = await newProject('fenced');

    await update('fenced', { allowedCidrs: ['10.0.0.0/8', '::1/128'] });
    expectOpenAiError(await apiError(chat(key)), 403, 'permission_error', 'ip_not_allowed');

    await update('fenced', { allowedCidrs: ['127.0.0.0/8'] });
    expect((await chat(key)).response.status).toBe(200);
  });

  it('does not let a client claim an allowed address with CloudFront-Viewer-Address when not behind CloudFront', async () => {
    const key = await newProject('spoofed');
    await update('spoofed', { allowedCidrs: ['10.0.0.0/8'] });

    expectOpenAiError(await apiError(chat(key, ask(), { 'CloudFront-Viewer-Address': '10.1.2.3:443' })), 403, 'permission_error', 'ip_not_allowed');
  });

  it('refuses a request without an allowed X-Environment with environment_not_allowed', async () => {
    const key = await newProject('staged');
    await update('staged', { allowedEnvironments: ['prod'] });

    expectOpenAiError(await apiError(chat(key)), 403, 'permission_error', 'environment_not_allowed');
    expectOpenAiError(await apiError(chat(key, ask(), { 'X-Environment': 'dev' })), 403, 'permission_error', 'environment_not_allowed');
    expect((await chat(key, ask(), { 'X-Environment': 'prod' })).response.status).toBe(200);

    await update('staged', { allowedEnvironments: 'none' });
    expect((await chat(key)).response.status).toBe(200);
  });

  it('refuses an endpoint group the policy does not allow with endpoint_not_allowed', async () => {
    const key = await newProject('chat-only');
    expect((await gateway.openai(key).models.list()).data.map((model) => model.id)).toEqual(['openai/gpt-4o-mini']);

    await update('chat-only', { allowedEndpoints: ['chat'] });

    expectOpenAiError(await apiError(gateway.openai(key).models.list()), 403, 'permission_error', 'endpoint_not_allowed');
    expect((await chat(key)).response.status).toBe(200);
  });

  it('refuses a project whose plan is inactive with plan_inactive, and admits it again when active', async () => {
    const key = await newProject('dormant');
    const calledBefore = upstream.received.length;

    await update('dormant', { plan: 'inactive' });
    expectOpenAiError(await apiError(chat(key)), 403, 'permission_error', 'plan_inactive');
    expect(upstream.received.length).toBe(calledBefore);

    await update('dormant', { plan: 'active' });
    expect((await chat(key)).response.status).toBe(200);
  });
});
