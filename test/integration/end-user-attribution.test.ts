import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findNamedUsageQuery } from '../../shared/usage-writer/named-usage-queries.ts';
import { USAGE_FIRST_DAY, USAGE_LAST_DAY } from '../../shared/usage-writer/usage-table.ts';
import { queryLocalUsage } from '../../tools/cli/local-usage-query.ts';
import { recordedAnthropicAnswer } from '../support/fake-anthropic-upstream.ts';
import { sendJson, startFakeOpenAiUpstream, type FakeUpstream } from '../support/fake-openai-upstream.ts';
import { recordedResponsesAnswer } from '../support/fake-responses-upstream.ts';
import { readFixture } from '../support/fixtures.ts';
import { generationOf } from '../support/generation-lookup.ts';
import { startTestGateway, type TestGateway } from '../support/test-gateway.ts';

let gateway: TestGateway;
let openai: FakeUpstream;
let anthropic: FakeUpstream;
let key: string;

beforeAll(async () => {
  openai = await startFakeOpenAiUpstream();
  anthropic = await startFakeOpenAiUpstream();
  gateway = await startTestGateway();
  await gateway.admin({ command: 'project.create', projectId: 'app' });
  await gateway.admin({ command: 'provider.set', projectId: 'app', provider: 'openai', apiKey: 'sk-openai-upstream-0123456789', baseUrl: openai.baseUrl });
  await gateway.admin({ command: 'provider.set', projectId: 'app', provider: 'anthropic', apiKey: 'sk-ant-upstream-0123456789', baseUrl: anthropic.baseUrl });
  await gateway.admin({ command: 'model.allow', projectId: 'app', slug: 'openai/gpt-4o-mini', inputMicrosPer1k: 150, outputMicrosPer1k: 600 });
  await gateway.admin({ command: 'model.allow', projectId: 'app', slug: 'openai/gpt-5.5', inputMicrosPer1k: 1250, outputMicrosPer1k: 10_000 });
  await gateway.admin({ command: 'model.allow', projectId: 'app', slug: 'anthropic/claude-haiku-4-5', inputMicrosPer1k: 1000, outputMicrosPer1k: 5000 });
  key = (await gateway.admin<{ key: string }>({ command: 'key.create', projectId: 'app' })).key;
  openai.answerWith((request, response) =>
    request.path === '/v1/responses' ? recordedResponsesAnswer()(request, response) : sendJson(response, 200, readFixture('openai-chat/chat-nonstream-text-usage-details.json')),
  );
  anthropic.answerWith(recordedAnthropicAnswer());
});

afterAll(async () => {
  await gateway?.close();
  await openai?.close();
  await anthropic?.close();
});

/** What the lookup shows of the end user (OpenRouter's field name). */
async function externalUserOf(requestId: string): Promise<unknown> {
  return ((await generationOf(gateway, key, requestId)) as unknown as { external_user: unknown }).external_user;
}

/** The end_user column of the request's row in the usage files, once the writer has written them. */
async function endUserColumnOf(requestId: string): Promise<unknown> {
  await gateway.host.drainUsage();
  const rows = await queryLocalUsage(gateway.dataDir, 'SELECT end_user FROM usage_records WHERE id = ?', [requestId]);
  expect(rows).toHaveLength(1);
  return rows[0]?.end_user;
}

const hello = [{ role: 'user' as const, content: 'Hi' }];

describe('the end user a request body names', () => {
  it("is recorded from chat completions' `user` (OpenAI SDK), and still reaches the provider", async () => {
    await gateway.openai(key).chat.completions.create({ model: 'openai/gpt-4o-mini', messages: hello, user: 'user-123' }, { headers: { 'X-Request-ID': 'chat-user' } });

    expect(openai.received.at(-1)?.body.user).toBe('user-123');
    expect(await externalUserOf('chat-user')).toBe('user-123');
    expect(await endUserColumnOf('chat-user')).toBe('user-123');
  });

  it("is recorded from the Responses API's `safety_identifier` when the body has no `user` (OpenAI SDK)", async () => {
    await gateway.openai(key).responses.create({ model: 'openai/gpt-5.5', input: 'Hi', safety_identifier: 'hashed-42' }, { headers: { 'X-Request-ID': 'responses-safety-identifier' } });

    expect(openai.received.at(-1)?.body.safety_identifier).toBe('hashed-42');
    expect(await externalUserOf('responses-safety-identifier')).toBe('hashed-42');
    expect(await endUserColumnOf('responses-safety-identifier')).toBe('hashed-42');
  });

  it("is recorded from Messages' `metadata.user_id` (Anthropic SDK), and still reaches the provider", async () => {
    const client = new Anthropic({ authToken: key, apiKey: null, baseURL: gateway.url, maxRetries: 0 });
    await client.messages.create(
      { model: 'anthropic/claude-haiku-4-5', max_tokens: 64, messages: hello, metadata: { user_id: 'user-456' } },
      { headers: { 'X-Request-ID': 'messages-user-id' } },
    );

    expect(anthropic.received.at(-1)?.body.metadata).toEqual({ user_id: 'user-456' });
    expect(await externalUserOf('messages-user-id')).toBe('user-456');
    expect(await endUserColumnOf('messages-user-id')).toBe('user-456');
  });

  it('is null in the lookup and the usage files when the body names none', async () => {
    await gateway.openai(key).chat.completions.create({ model: 'openai/gpt-4o-mini', messages: hello }, { headers: { 'X-Request-ID': 'chat-no-user' } });

    expect(await externalUserOf('chat-no-user')).toBeNull();
    expect(await endUserColumnOf('chat-no-user')).toBeNull();
  });

  it('is summed per end user by the named query cost-by-end-user', async () => {
    await gateway.host.drainUsage();
    const rows = await queryLocalUsage(gateway.dataDir, findNamedUsageQuery('cost-by-end-user')?.sql ?? '', [USAGE_FIRST_DAY, USAGE_LAST_DAY]);
    expect(rows.map((row) => [row.project_id, row.end_user, row.requests])).toEqual(
      expect.arrayContaining([['app', 'user-123', 1], ['app', 'hashed-42', 1], ['app', 'user-456', 1]]),
    );
    expect(rows).toHaveLength(3);
  });
});
