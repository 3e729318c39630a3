import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureCodex, runCodex } from '../support/codex.ts';
import { refusalOfAnthropic } from '../support/anthropic-refusals.ts';
import { recordedAnthropicAnswer } from '../support/fake-anthropic-upstream.ts';
import { refusingAsProvider, sendSse, startFakeOpenAiUpstream, type FakeUpstream, type ReceivedRequest } from '../support/fake-openai-upstream.ts';
import { recordedResponsesAnswer } from '../support/fake-responses-upstream.ts';
import { anthropicStreamCalling, responsesStreamCalling } from '../support/recorded-tool-call.ts';
import { startTestGateway, type TestGateway } from '../support/test-gateway.ts';

let gateway: TestGateway;
let openai: FakeUpstream;
let anthropic: FakeUpstream;
let key: string;
let codex: string;

/** The shell tool Codex offers (exec_command), called as a model would call it. */
const RUN_ECHO = { name: 'exec_command', arguments: JSON.stringify({ cmd: 'echo hi-from-tool' }) };

/** Whether a request already carries a tool's result: then the model answers with text. */
const hasToolResult = (request: ReceivedRequest) => /function_call_output|tool_result/.test(JSON.stringify(request.body));

beforeAll(async () => {
  codex = await ensureCodex();
  openai = await startFakeOpenAiUpstream();
  anthropic = await startFakeOpenAiUpstream();
  // First turn: the recorded function-call stream, calling Codex's shell tool; after its result: the recorded text stream.
  const answerText = recordedResponsesAnswer();
  openai.answerWith((request, response) => (hasToolResult(request) ? answerText(request, response) : sendSse(response, responsesStreamCalling('responses-stream-function-call.sse', RUN_ECHO), 1)));
  const answerHello = recordedAnthropicAnswer();
  // Anthropic's side refuses what Anthropic refuses (anthropic-refusals.ts): Codex's translated turns must be taken.
  anthropic.answerWith(
    refusingAsProvider(refusalOfAnthropic, (request, response) =>
      hasToolResult(request) ? answerHello(request, response) : sendSse(response, anthropicStreamCalling('messages-stream-tool-use-input-json-delta.sse', RUN_ECHO), 1),
    ),
  );
  gateway = await startTestGateway();
  const projectId = 'codex';
  await gateway.admin({ command: 'project.create', projectId });
  await gateway.admin({ command: 'provider.set', projectId, provider: 'openai', apiKey: 'sk-openai-upstream-0123456789', baseUrl: openai.baseUrl });
  await gateway.admin({ command: 'provider.set', projectId, provider: 'anthropic', apiKey: 'sk-ant-upstream-0123456789', baseUrl: anthropic.baseUrl });
  await gateway.admin({ command: 'model.allow', projectId, slug: 'openai/gpt-5.5', inputMicrosPer1k: 1250, outputMicrosPer1k: 10_000 });
  await gateway.admin({ command: 'model.allow', projectId, slug: 'anthropic/claude-haiku-4-5', inputMicrosPer1k: 1000, outputMicrosPer1k: 5000 });
  key = (await gateway.admin<{ key: string }>({ command: 'key.create', projectId })).key;
}, 240_000);

afterAll(async () => {
  await gateway?.close();
  await openai?.close();
  await anthropic?.close();
});

async function generation(id: string) {
  await gateway.host.drainUsage();
  const response = await fetch(`${gateway.url}/v1/generation?id=${id}`, { headers: { authorization: `Bearer ${key}` } });
  return (await response.json()) as { endpoint: string; model: string; tokens_prompt: number; tokens_completion: number; total_cost: number; fallback_attempts: number; status: string };
}

describe('Codex through the gateway', () => {
  it('runs a turn natively on an OpenAI model: the tool call is executed and its output sent back, the answer printed and metered', { timeout: 150_000 }, async () => {
    openai.received.length = 0;
    const result = await runCodex(codex, { baseUrl: gateway.url, key, model: 'gpt-5.5', prompt: 'Run echo hi-from-tool', requestId: 'codex-native-1' });

    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.trim()).toBe('pong');
    const [first, second] = openai.received;
    expect(first).toMatchObject({ path: '/v1/responses', body: { model: 'gpt-5.5', stream: true, store: false } });
    expect(first?.headers.authorization).toBe('Bearer sk-openai-upstream-0123456789');
    // Native: Codex's own tools reach the provider as sent (its custom apply_patch tool included).
    expect((first?.body.tools as Array<{ type: string; name?: string }>).find((tool) => tool.name === 'apply_patch')?.type).toBe('custom');
    const output = (second?.body.input as Array<{ type?: string; call_id?: string; output?: string }>).find((item) => item.type === 'function_call_output');
    expect(output?.output).toContain('hi-from-tool');

    const record = await generation('codex-native-1');
    expect(record).toMatchObject({ endpoint: 'responses', model: 'openai/gpt-5.5', status: 'completed', tokens_prompt: 11, tokens_completion: 5, fallback_attempts: 0 });
    expect(record.total_cost).toBeCloseTo((11 * 1250 + 5 * 10_000) / 1e9, 12);
  });

  it('runs a turn on an Anthropic model through translation, with the same tool round trip', { timeout: 150_000 }, async () => {
    anthropic.received.length = 0;
    const result = await runCodex(codex, { baseUrl: gateway.url, key, model: 'claude-haiku-4-5', prompt: 'Run echo hi-from-tool', requestId: 'codex-translated-1' });

    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.trim()).toBe('Hello');
    const [first, second] = anthropic.received;
    expect(first).toMatchObject({ path: '/v1/messages', body: { model: 'claude-haiku-4-5', stream: true } });
    expect(first?.headers['x-api-key']).toBe('sk-ant-upstream-0123456789');
    // Codex's developer messages (its instructions) are hoisted into Anthropic's system.
    expect(JSON.stringify(first?.body.system)).toContain('Codex CLI');
    // Codex's function tools reach Anthropic as tools with their JSON schemas.
    expect((first?.body.tools as Array<{ name: string; input_schema: unknown }>).find((tool) => tool.name === 'exec_command')?.input_schema).toMatchObject({
      properties: { cmd: { type: 'string' } },
    });
    const messages = second?.body.messages as Array<{ role: string; content: Array<{ type: string; name?: string; content?: unknown }> }>;
    expect(messages.at(-2)?.content.find((block) => block.type === 'tool_use')).toMatchObject({ name: 'exec_command' });
    expect(JSON.stringify(messages.at(-1)?.content.find((block) => block.type === 'tool_result'))).toContain('hi-from-tool');

    const record = await generation('codex-translated-1');
    expect(record).toMatchObject({ endpoint: 'responses', model: 'anthropic/claude-haiku-4-5', status: 'completed', tokens_prompt: 10, tokens_completion: 4 });
    expect(record.total_cost).toBeCloseTo((10 * 1000 + 4 * 5000) / 1e9, 12);
  });
});
