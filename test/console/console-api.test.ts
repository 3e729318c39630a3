import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleRecord, writeUsageFiles } from '../support/sample-usage-record.ts';
import { startAcmeConsole, type ConsoleApiHarness } from './console-api-harness.ts';

describe('the console API', () => {
  let consoleApi: ConsoleApiHarness;
  let owner: string;
  let member: string;
  let outsider: string;

  beforeAll(async () => {
    ({ consoleApi, owner, member, outsider } = await startAcmeConsole());
  });
  afterAll(async () => {
    await consoleApi?.close();
  });

  it.each([
    ['GET', '/me'],
    ['GET', '/projects/acme/keys'],
    ['POST', '/projects/acme/keys'],
    ['GET', '/no/such/route'],
  ])('answers an anonymous %s %s with 401', async (method, path) => {
    const answer = await consoleApi.call(method, path, method === 'POST' ? { body: {} } : {});
    expect(answer.status).toBe(401);
    expect(answer.json.error?.code).toBe('not_signed_in');
    expect(answer.headers['cache-control']).toBe('no-store');
  });

  it('refuses a made-up token and a second use of a sign-in code', async () => {
    expect((await consoleApi.call('GET', '/me', { token: 'made-up' })).status).toBe(401);
    const code = consoleApi.sessions.issueSignInCode('olivia@example.com');
    expect((await consoleApi.call('POST', '/session', { body: { code } })).status).toBe(200);
    const again = await consoleApi.call('POST', '/session', { body: { code } });
    expect(again.status).toBe(401);
    expect(again.json.error?.message).toMatch(/already used or has expired/);
  });

  it('shows a signed-in person their projects and role', async () => {
    const me = await consoleApi.call('GET', '/me', { token: member });
    expect(me.status).toBe(200);
    expect(me.json).toMatchObject({ member: 'max@example.com', projects: [{ id: 'acme', name: 'Acme', role: 'member' }] });
    expect((await consoleApi.call('GET', '/me', { token: outsider })).json.projects).toEqual([]);
  });

  it('answers 403 to someone who is not a member, whether or not the project exists', async () => {
    for (const path of ['/projects/acme', '/projects/secret-project/keys', '/projects/no-such-project']) {
      const answer = await consoleApi.call('GET', path, { token: outsider });
      expect(answer.status, path).toBe(403);
      expect(answer.json.error?.code).toBe('not_a_member');
    }
  });

  it('lets only owners change models, providers and members', async () => {
    const attempts: Array<[string, string, unknown]> = [
      ['POST', '/projects/acme/models', { slug: 'mock/other' }],
      ['POST', '/projects/acme/models/remove', { slug: 'mock/echo' }],
      ['PUT', '/projects/acme/providers/openai', { apiKey: 'sk-member-should-not' }],
      ['POST', '/projects/acme/members', { member: 'max@example.com', role: 'owner' }],
      ['POST', '/projects/acme/members/remove', { member: 'olivia@example.com' }],
    ];
    for (const [method, path, body] of attempts) {
      const answer = await consoleApi.call(method, path, { token: member, body });
      expect(answer.status, path).toBe(403);
      expect(answer.json.error?.code).toBe('owner_only');
    }
    expect((await consoleApi.admin.secrets.getApiKey('acme', 'openai'))).toBeUndefined();
  });

  it('sets a provider key for an owner and never shows it back', async () => {
    const answer = await consoleApi.call('PUT', '/projects/acme/providers/openai', { token: owner, body: { apiKey: 'sk-owner-upstream-key-123' } });

    expect(answer.status).toBe(200);
    expect(answer.text).not.toContain('sk-owner-upstream-key-123');
    expect(answer.json.providers).toEqual(expect.arrayContaining([expect.objectContaining({ provider: 'openai', has_api_key: true })]));
    expect(await consoleApi.admin.secrets.getApiKey('acme', 'openai')).toBe('sk-owner-upstream-key-123');
    const project = await consoleApi.call('GET', '/projects/acme', { token: member });
    expect(project.text).not.toContain('sk-owner-upstream-key-123');
  });

  it("keeps the stored provider key when an owner changes only the base URL on its host, and words a refusal for the console too", async () => {
    const moved = await consoleApi.call('PUT', '/projects/acme/providers/openai', { token: owner, body: { baseUrl: 'https://api.openai.com/v2' } });
    expect(moved.status).toBe(200);
    expect(moved.json.providers).toEqual(expect.arrayContaining([expect.objectContaining({ provider: 'openai', base_url: 'https://api.openai.com/v2', has_api_key: true })]));
    expect(await consoleApi.admin.secrets.getApiKey('acme', 'openai')).toBe('sk-owner-upstream-key-123');

    const elsewhere = await consoleApi.call('PUT', '/projects/acme/providers/openai', { token: owner, body: { baseUrl: 'https://llm-proxy.example/v1' } });
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.json.error).toEqual({
      code: 'missing_api_key',
      message: 'Provider "openai" moves to https://llm-proxy.example: give its API key again (the stored key is sent only to https://api.openai.com).',
    });
    const unset = await consoleApi.call('PUT', '/projects/acme/providers/groq', { token: owner, body: {} });
    expect(unset.json.error).toEqual({ code: 'missing_api_key', message: 'Provider "groq" needs an API key.' });
  });

  it('shows a project whose spend passed 2^53 nano-USD (about 9 million USD), exactly', async () => {
    await consoleApi.admin.ok({ command: 'project.create', projectId: 'big-spender' });
    await consoleApi.admin.ok({ command: 'member.add', projectId: 'big-spender', member: 'olivia@example.com', role: 'owner' });
    await consoleApi.admin.usageLedger().recordAll([
      sampleRecord({ projectId: 'big-spender', costNanos: 9_000_000_000_000_000 }),
      sampleRecord({ projectId: 'big-spender', costNanos: 9_000_000_000_000_001 }),
    ]);

    const project = await consoleApi.call('GET', '/projects/big-spender', { token: owner });

    expect(project.status).toBe(200);
    expect(project.json).toMatchObject({ spent_usd: '18000000.000000001', request_count: 2 });
  });

  it("validates a model with the admin command's own rules", async () => {
    const refused = await consoleApi.call('POST', '/projects/acme/models', { token: owner, body: { slug: 'no-slash' } });
    expect(refused.status).toBe(400);
    expect(refused.json.error).toEqual({ code: 'invalid_command', message: 'slug: models are named <provider>/<model>' });

    const allowed = await consoleApi.call('POST', '/projects/acme/models', {
      token: owner,
      body: { slug: 'mock/fast', alias: 'fast', inputMicrosPer1k: 10, outputMicrosPer1k: 20 },
    });
    expect(allowed.status).toBe(200);
    expect(allowed.json.models).toEqual(
      expect.arrayContaining([expect.objectContaining({ slug: 'mock/fast', alias: 'fast', input_price_micros_per_1k: 10, output_price_micros_per_1k: 20 })]),
    );
  });

  it('takes the prompt-cache prices of a model and gives them back, null for each one not set', async () => {
    const allowed = await consoleApi.call('POST', '/projects/acme/models', {
      token: owner,
      body: { slug: 'mock/claude-like', inputMicrosPer1k: 3000, outputMicrosPer1k: 15000, cachedInputMicrosPer1k: 300, cacheWriteInputMicrosPer1k: 3750, cacheWrite1hInputMicrosPer1k: 6000 },
    });
    expect(allowed.status).toBe(200);
    expect(allowed.json.models).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          slug: 'mock/claude-like',
          cached_input_price_micros_per_1k: 300,
          cache_write_input_price_micros_per_1k: 3750,
          cache_write_1h_input_price_micros_per_1k: 6000,
        }),
      ]),
    );

    const project = await consoleApi.call('GET', '/projects/acme', { token: owner });
    expect(project.json.models).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ slug: 'mock/echo', cached_input_price_micros_per_1k: null, cache_write_input_price_micros_per_1k: null, cache_write_1h_input_price_micros_per_1k: null }),
      ]),
    );
  });

  it("refuses a member's key name over 200 characters or with terminal control characters, with the admin command's message", async () => {
    const long = await consoleApi.call('POST', '/projects/acme/keys', { token: member, body: { name: 'n'.repeat(5_000) } });
    expect(long.status).toBe(400);
    expect(long.json.error).toEqual({ code: 'invalid_command', message: 'name: names are at most 200 characters' });

    const hostile = await consoleApi.call('POST', '/projects/acme/keys', { token: member, body: { name: '\u001b]0;pwned\u0007\u001b[2JURGENT' } });
    expect(hostile.status).toBe(400);
    expect(hostile.json.error).toMatchObject({ code: 'invalid_command', message: expect.stringMatching(/^name: names must not contain control characters/) });
  });

  it('refuses a write that is not sent as application/json (a cross-site form cannot send it)', async () => {
    const answer = await consoleApi.call('POST', '/projects/acme/keys', { token: member, body: 'name=x', contentType: 'application/x-www-form-urlencoded' });
    expect(answer.status).toBe(415);
  });

  it('refuses a body nested deeper than the gateway accepts, as the generation routes do', async () => {
    const deep = `{"name": ${'['.repeat(200)}${']'.repeat(200)}}`;
    const answer = await consoleApi.call('POST', '/projects/acme/keys', { token: member, body: deep });
    expect(answer.status).toBe(400);
    expect(answer.json.error?.code).toBe('json_too_deep');
  });

  it("shows owners the audit trail with the console user's name, and members not at all", async () => {
    // A member's own write (the key tests are in console-api-keys.test.ts).
    await consoleApi.call('POST', '/projects/acme/keys', { token: member, body: { name: 'laptop' } });
    const trail = await consoleApi.call('GET', '/projects/acme/audit', { token: owner });

    expect(trail.status).toBe(200);
    const entries = trail.json.entries as Array<{ actor: string; command: string; details: Record<string, unknown> }>;
    expect(entries).toEqual(expect.arrayContaining([
      expect.objectContaining({ actor: 'max@example.com', command: 'key.create', details: expect.objectContaining({ name: 'laptop', member: 'max@example.com' }) }),
      expect.objectContaining({ actor: 'olivia@example.com', command: 'provider.set', details: { provider: 'openai', apiKey: '(set)' } }),
      expect.objectContaining({ actor: 'admin CLI', command: 'project.create' }),
    ]));
    expect(trail.text).not.toContain('sk-owner-upstream-key-123');
    expect((await consoleApi.call('GET', '/projects/acme/audit', { token: member })).status).toBe(403);
  });

  it('manages members: an owner adds and removes people', async () => {
    const added = await consoleApi.call('POST', '/projects/acme/members', { token: owner, body: { member: 'nina@example.com' } });
    expect(added.json).toMatchObject({ member: 'nina@example.com', role: 'member' });
    const afterRemoval = await consoleApi.call('POST', '/projects/acme/members/remove', { token: owner, body: { member: 'nina@example.com' } });
    expect(afterRemoval.json).toMatchObject({ removed_members: ['nina@example.com'] });
    expect((afterRemoval.json.members as Array<{ member: string }>).map((entry) => entry.member)).toEqual(['max@example.com', 'olivia@example.com']);
  });

  it('summarises usage and downloads it as CSV', async () => {
    await writeUsageFiles(consoleApi.dataDir, [
      sampleRecord({ projectId: 'acme', model: 'mock/echo', costNanos: 2_000, createdAt: '2025-01-01T08:00:00.000Z', requestId: 'req-console' }),
      sampleRecord({ projectId: 'secret-project', costNanos: 1, createdAt: '2025-01-01T08:00:00.000Z' }),
    ]);

    const summary = await consoleApi.call('GET', '/projects/acme/usage?from=2025-01-01&to=2025-01-02', { token: member });
    expect(summary.json).toMatchObject({ by_day: [{ day: '2025-01-01', requests: 1, cost_usd: '0.000002' }], top_requests: [{ request_id: 'req-console' }] });

    const csv = await consoleApi.call('GET', '/projects/acme/usage.csv?from=2025-01-01&to=2025-01-02', { token: member });
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toBe('attachment; filename="usage-acme-2025-01-01-to-2025-01-02.csv"');
    const lines = csv.text.trim().split('\r\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain('req-console');

    expect((await consoleApi.call('GET', '/projects/acme/usage?from=2025-01-09&to=2025-01-02', { token: member })).status).toBe(400);
  });

  it('answers sums beyond 2^53 nano-USD as exact decimal strings, and writes the rows exactly to the CSV', async () => {
    await writeUsageFiles(consoleApi.dataDir, [
      sampleRecord({ projectId: 'acme', model: 'mock/echo', costNanos: 5_000_000_000_000_001, createdAt: '2025-01-05T08:00:00.000Z' }),
      sampleRecord({ projectId: 'acme', model: 'mock/echo', costNanos: 5_000_000_000_000_002, createdAt: '2025-01-05T09:00:00.000Z' }),
    ]);

    const summary = await consoleApi.call('GET', '/projects/acme/usage?from=2025-01-05&to=2025-01-05', { token: member });
    const exact = { requests: 2, cost_nanos: '10000000000000003', cost_usd: '10000000.000000003' };
    expect(summary.json).toMatchObject({ by_day: [{ day: '2025-01-05', ...exact }], by_model: [{ model: 'mock/echo', ...exact }] });

    const csv = await consoleApi.call('GET', '/projects/acme/usage.csv?from=2025-01-05&to=2025-01-05', { token: member });
    const [header = '', ...lines] = csv.text.trim().split('\r\n');
    const costColumn = header.split(',').indexOf('cost_nanos');
    expect(lines.map((line) => line.split(',')[costColumn])).toEqual(['5000000000000001', '5000000000000002']);
    const usdColumn = header.split(',').indexOf('cost_usd');
    expect(lines.map((line) => line.split(',')[usdColumn])).toEqual(['5000000.000000001', '5000000.000000002']);
  });

  it('ends a session when it expires, and on sign-out', async () => {
    const token = await consoleApi.signIn('max@example.com');
    expect((await consoleApi.call('DELETE', '/session', { token })).status).toBe(200);
    expect((await consoleApi.call('GET', '/me', { token })).status).toBe(401);

    const later = await consoleApi.signIn('max@example.com');
    consoleApi.advance(3_600_000);
    const expired = await consoleApi.call('GET', '/me', { token: later });
    expect(expired.status).toBe(401);
    expect(expired.json.error?.message).toBe('Your session has expired: sign in again.');
  });
});
