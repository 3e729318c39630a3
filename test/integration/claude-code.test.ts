import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isEditorClientRequest } from '../../shared/protocols/editor-chat/editor-client-detection.ts';
import { ensureClaudeCode, runClaudeCode } from '../support/claude-code.ts';
import { recordedAnthropicAnswer } from '../support/fake-anthropic-upstream.ts';
import { recordedResponsesAnswer } from '../support/fake-responses-upstream.ts';
import { refusingAsProvider, sendSse, sseEvents, startFakeOpenAiUpstream, type FakeUpstream } from '../support/fake-openai-upstream.ts';
import { readFixture } from '../support/fixtures.ts';
import { refusalOfOpenAi, refusalOfOpenAiResponses } from '../support/openai-refusals.ts';
import { startTestGateway, type TestGateway } from '../support/test-gateway.ts';

let gateway: TestGateway;
let anthropic: FakeUpstream;
let openai: FakeUpstream;
let openrouter: FakeUpstream;
let key: string;
let claude: string;

beforeAll(async () => {
  claude = await ensureClaudeCode();
  anthropic = await startFakeOpenAiUpstream();
  anthropic.answerWith(recordedAnthropicAnswer());
  gateway = await startTestGateway();
  await gateway.admin({ command: 'project.create', projectId: 'coding' });
  await gateway.admin({ command: 'provider.set', projectId: 'coding', provider: 'anthropic', apiKey: 'sk-ant-upstream-0123456789', baseUrl: anthropic.baseUrl });
  await gateway.admin({ command: 'model.allow', projectId: 'coding', slug: 'anthropic/claude-haiku-4-5', inputMicrosPer1k: 1000, outputMicrosPer1k: 5000 });
  openai = await startFakeOpenAiUpstream();
  // A reasoning model's translation goes to OpenAI's Responses API (bridge.ts, translationTarget), checked as that API checks it.
  const answerResponses = refusingAsProvider(refusalOfOpenAiResponses, recordedResponsesAnswer());
  const answerChat = refusingAsProvider(refusalOfOpenAi, (_request, response) => sendSse(response, sseEvents(readFixture('openai-chat/chat-stream-text-include-usage.sse'))));
  openai.answerWith((request, response) => (request.path === '/v1/responses' ? answerResponses(request, response) : answerChat(request, response)));
  await gateway.admin({ command: 'provider.set', projectId: 'coding', provider: 'openai', apiKey: 'sk-openai-upstream-0123456789', baseUrl: openai.baseUrl });
  await gateway.admin({ command: 'model.allow', projectId: 'coding', slug: 'openai/gpt-4o-mini', inputMicrosPer1k: 150, outputMicrosPer1k: 600 });
  await gateway.admin({ command: 'model.allow', projectId: 'coding', slug: 'openai/o3', inputMicrosPer1k: 2000, outputMicrosPer1k: 8000 });
  openrouter = await startFakeOpenAiUpstream();
  openrouter.answerWith((_request, response) => void sendSse(response, sseEvents(readFixture('openai-chat/chat-stream-text-include-usage.sse'))));
  await gateway.admin({ command: 'provider.set', projectId: 'coding', provider: 'openrouter', apiKey: 'sk-or-upstream-0123456789', baseUrl: openrouter.baseUrl });
  await gateway.admin({ command: 'model.allow', projectId: 'coding', slug: 'openrouter/anthropic/claude-sonnet-4.5', alias: 'sonnet-via-openrouter', inputMicrosPer1k: 3000, outputMicrosPer1k: 15000 });
  key = (await gateway.admin<{ key: string }>({ command: 'key.create', projectId: 'coding' })).key;
}, 240_000);

afterAll(async () => {
  await gateway?.close();
  await anthropic?.close();
  await openai?.close();
  await openrouter?.close();
});

describe('Claude Code through the gateway', () => {
  it('completes a headless turn against an Anthropic upstream, with its headers forwarded and the turn metered', { timeout: 150_000 }, async () => {
    anthropic.received.length = 0;
    const result = await runClaudeCode(claude, { baseUrl: gateway.url, token: key, model: 'claude-haiku-4-5', prompt: 'Say hello' });

    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout.trim()).toBe('Hello');
    const turn = anthropic.received.find((request) => request.path.startsWith('/v1/messages'));
    expect(turn?.headers['x-api-key']).toBe('sk-ant-upstream-0123456789');
    expect(turn?.headers['anthropic-beta']).toMatch(/claude-code/);
    expect(turn?.body.model).toBe('claude-haiku-4-5');
    // Claude Code's own body and User-Agent (passed through natively) are never taken for the editor client's.
    expect(turn?.body.tools).toEqual(expect.arrayContaining([expect.objectContaining({ input_schema: expect.any(Object) })]));
    expect(isEditorClientRequest({ headers: { 'user-agent': String(turn?.headers['user-agent']) }, body: new TextEncoder().encode(JSON.stringify(turn?.body)) })).toBe(false);

    await gateway.host.drainUsage();
    const project = await gateway.admin<{ request_count: number; spent_usd: string }>({ command: 'project.get', projectId: 'coding' });
    // The recorded stream reports 10 input and 4 output tokens: 10 × 1000 + 4 × 5000 nano-USD.
    expect(project.request_count).toBeGreaterThanOrEqual(1);
    expect(Number(project.spent_usd)).toBeCloseTo((project.request_count * (10 * 1000 + 4 * 5000)) / 1e9, 12);
  });

  it("completes a headless turn on an OpenAI-compatible model through translation, metered from the chat usage, its cap within the model's", { timeout: 150_000 }, async () => {
    openai.received.length = 0;
    await gateway.host.drainUsage();
    const before = await gateway.admin<{ request_count: number; spent_usd: string }>({ command: 'project.get', projectId: 'coding' });
    const result = await runClaudeCode(claude, { baseUrl: gateway.url, token: key, model: 'gpt-4o-mini', prompt: 'What is 1231 times 2331?' });

    // Claude Code warns on stderr that it does not know this model's context window: expected for a non-Claude model.
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('2,869,461');
    const turn = openai.received.find((request) => request.path === '/v1/chat/completions');
    expect(turn?.headers.authorization).toBe('Bearer sk-openai-upstream-0123456789');
    expect(turn?.body).toMatchObject({ model: 'gpt-4o-mini', stream: true });

    // The recorded chat stream reports 87 prompt and 26 completion tokens: 87 × 150 + 26 × 600 nano-USD a turn.
    await gateway.host.drainUsage();
    const after = await gateway.admin<{ request_count: number; spent_usd: string }>({ command: 'project.get', projectId: 'coding' });
    const turns = after.request_count - before.request_count;
    expect(turns).toBeGreaterThanOrEqual(1);
    expect(Math.round((Number(after.spent_usd) - Number(before.spent_usd)) * 1e9)).toBe(turns * (87 * 150 + 26 * 600));
  });

  it("completes a headless turn on an OpenAI reasoning model through OpenAI's Responses API (its chat API refuses tools with reasoning for GPT-5.2 on)", { timeout: 150_000 }, async () => {
    openai.received.length = 0;
    const result = await runClaudeCode(claude, { baseUrl: gateway.url, token: key, model: 'o3', prompt: 'Think hard: what is 1231 times 2331?' });

    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toBe('pong');
    const turn = openai.received.find((request) => request.path === '/v1/responses');
    // Claude Code asks for thinking at an effort (adaptive thinking with output_config.effort, in 2.1.330), and always sends tools.
    expect(turn?.body).toMatchObject({ model: 'o3', stream: true, store: false, reasoning: { effort: expect.stringMatching(/^(low|medium|high)$/) } });
    expect((turn?.body.tools as unknown[]).length).toBeGreaterThan(0);
  });

  it('completes a headless turn on Claude through OpenRouter, its thinking sent as OpenRouter takes it (another chat server would drop it)', { timeout: 150_000 }, async () => {
    openrouter.received.length = 0;
    const result = await runClaudeCode(claude, { baseUrl: gateway.url, token: key, model: 'sonnet-via-openrouter', prompt: 'Think hard: what is 1231 times 2331?' });

    expect(result.code).toBe(0);
    const turn = openrouter.received.find((request) => request.path === '/v1/chat/completions');
    expect(turn?.body.model).toBe('anthropic/claude-sonnet-4.5');
    // Adaptive thinking at an effort (2.1.330) goes as reasoning_effort, which OpenRouter reads as its reasoning effort.
    expect(turn?.body.reasoning_effort).toMatch(/^(low|medium|high)$/);
  });

  it('tells the user to pick another model, not to sign in again, for a model the project does not allow', { timeout: 150_000 }, async () => {
    const result = await runClaudeCode(claude, { baseUrl: gateway.url, token: key, model: 'claude-opus-4-7', prompt: 'Say hello' });

    expect(result.code).not.toBe(0);
    expect(result.stdout).toMatch(/claude-opus-4-7.*may not exist or you may not have access to it/);
    expect(result.stdout).not.toMatch(/authenticate|login/i);
  });
});
