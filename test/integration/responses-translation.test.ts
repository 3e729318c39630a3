import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordedAnthropicAnswer } from '../support/fake-anthropic-upstream.ts';
import { sendJson, startFakeOpenAiUpstream, type FakeUpstream } from '../support/fake-openai-upstream.ts';
import { recordedResponsesAnswer } from '../support/fake-responses-upstream.ts';
import { readFixture } from '../support/fixtures.ts';
import { startTestGateway, type TestGateway } from '../support/test-gateway.ts';

let gateway: TestGateway;
let anthropic: FakeUpstream;
let openai: FakeUpstream;
let vllm: FakeUpstream;
let key: string;

beforeAll(async () => {
  anthropic = await startFakeOpenAiUpstream();
  openai = await startFakeOpenAiUpstream();
  vllm = await startFakeOpenAiUpstream();
  gateway = await startTestGateway();
  const projectId = 'translating';
  await gateway.admin({ command: 'project.create', projectId });
  await gateway.admin({ command: 'provider.set', projectId, provider: 'anthropic', apiKey: 'sk-ant-upstream-0123456789', baseUrl: anthropic.baseUrl });
  await gateway.admin({ command: 'provider.set', projectId, provider: 'openai', apiKey: 'sk-openai-upstream-0123456789', baseUrl: openai.baseUrl });
  await gateway.admin({ command: 'provider.set', projectId, provider: 'vllm', protocol: 'openai', apiKey: 'local-vllm-key', baseUrl: vllm.baseUrl });
  await gateway.admin({ command: 'model.allow', projectId, slug: 'anthropic/claude-haiku-4-5', inputMicrosPer1k: 1000, outputMicrosPer1k: 5000 });
  await gateway.admin({ command: 'model.allow', projectId, slug: 'openai/o3-pro', upstreamApi: 'responses', inputMicrosPer1k: 20_000, outputMicrosPer1k: 80_000 });
  await gateway.admin({ command: 'model.allow', projectId, slug: 'openai/gpt-5.5', inputMicrosPer1k: 1250, outputMicrosPer1k: 10_000 });
  await gateway.admin({ command: 'model.allow', projectId, slug: 'vllm/qwen3-8b' });
  key = (await gateway.admin<{ key: string }>({ command: 'key.create', projectId })).key;
});

afterAll(async () => {
  await gateway?.close();
  await anthropic?.close();
  await openai?.close();
  await vllm?.close();
});

const lookup = { type: 'function' as const, name: 'retrieve_entity_info', description: 'Looks a person up', parameters: { type: 'object', properties: { name: { type: 'string' } } }, strict: false };

async function generation(id: string) {
  await gateway.host.drainUsage();
  const response = await fetch(`${gateway.url}/v1/generation?id=${encodeURIComponent(id)}`, { headers: { authorization: `Bearer ${key}` } });
  return (await response.json()) as { endpoint: string; model: string; tokens_prompt: number; tokens_completion: number; total_cost: number; fallback_attempts: number; status: string };
}

describe('/v1/responses on an Anthropic model', () => {
  it('sends the provider a Messages request and gives the SDK a response with function_call items', async () => {
    anthropic.answerWith(recordedAnthropicAnswer({ json: 'anthropic/messages-nonstream-parallel-tool-use.json' }));
    anthropic.received.length = 0;

    const { data: response, response: raw } = await gateway
      .openai(key)
      .responses.create({ model: 'claude-haiku-4-5', instructions: 'Be brief.', input: 'Look up Alice, Bob, Charlie and Daisy', tools: [lookup], max_output_tokens: 500 })
      .withResponse();

    expect(anthropic.received[0]?.path).toBe('/v1/messages');
    expect(anthropic.received[0]?.body).toMatchObject({ model: 'claude-haiku-4-5', system: [{ type: 'text', text: 'Be brief.' }], max_tokens: 500, tools: [{ name: 'retrieve_entity_info' }] });
    expect(response.id).toMatch(/^resp_/);
    // The response repeats the request's parameters, as OpenAI's do; nothing is stored for a translated answer.
    expect(response).toMatchObject({ instructions: 'Be brief.', max_output_tokens: 500, tools: [lookup], tool_choice: 'auto', store: false, previous_response_id: null });
    expect(response.output.filter((item) => item.type === 'function_call').map((item) => item.type === 'function_call' && JSON.parse(item.arguments))).toEqual([
      { name: 'Alice' },
      { name: 'Bob' },
      { name: 'Charlie' },
      { name: 'Daisy' },
    ]);
    expect(await generation(raw.headers.get('x-request-id') ?? '')).toMatchObject({ endpoint: 'responses', model: 'anthropic/claude-haiku-4-5', status: 'completed' });
  });

  it('streams thinking and a tool call, then sends the signed thinking and the tool output back on the next turn', async () => {
    anthropic.answerWith(recordedAnthropicAnswer({ stream: 'anthropic/messages-stream-thinking-then-tool-use.sse' }));
    const stream = gateway.openai(key).responses.stream({ model: 'claude-haiku-4-5', input: 'Which version?', reasoning: { effort: 'low' }, include: ['reasoning.encrypted_content'], tools: [{ ...lookup, name: 'fixed_version' }] });
    for await (const _event of stream) void _event;
    const first = await stream.finalResponse();
    const reasoning = first.output.find((item) => item.type === 'reasoning');
    const call = first.output.find((item) => item.type === 'function_call');
    expect(reasoning?.encrypted_content).toMatch(/^gateway-anthropic-signature:EoQDCm0IDhgC/);
    expect(call).toMatchObject({ name: 'fixed_version', call_id: 'toolu_01825dXWLSoJwCst1qTsiWdb' });
    // No cap asked (as Codex asks none): a stream gets 32,000 tokens on a model known to take 64,000.
    expect(anthropic.received.at(-1)?.body).toMatchObject({ thinking: { type: 'enabled' }, max_tokens: 32_000 });
    expect(first).toMatchObject({ reasoning: { effort: 'low', summary: null }, tools: [{ name: 'fixed_version' }], text: { format: { type: 'text' } } });

    anthropic.answerWith(recordedAnthropicAnswer());
    const next = await gateway.openai(key).responses.create({
      model: 'claude-haiku-4-5',
      reasoning: { effort: 'low' },
      tools: [{ ...lookup, name: 'fixed_version' }],
      input: [{ role: 'user', content: 'Which version?' }, ...(first.output as OpenAI.Responses.ResponseInputItem[]), { type: 'function_call_output', call_id: 'toolu_01825dXWLSoJwCst1qTsiWdb', output: '2.1.129' }],
    });
    expect(next.output_text).toBeTruthy();
    // Answered whole, it keeps 4,096, within the upstream's first-byte time-out.
    expect(anthropic.received.at(-1)?.body).toMatchObject({ max_tokens: 4096 });
    const [assistant, results] = (anthropic.received.at(-1)?.body.messages as Array<{ role: string; content: Array<Record<string, unknown>> }>).slice(-2);
    expect(assistant?.content.map((block) => block.type)).toEqual(['thinking', 'tool_use']);
    expect(assistant?.content[0]?.signature).toMatch(/^EoQDCm0IDhgC/);
    expect(results?.content[0]).toEqual({ type: 'tool_result', tool_use_id: 'toolu_01825dXWLSoJwCst1qTsiWdb', content: '2.1.129' });
  });

  it('leaves Claude\'s carried thinking behind when the conversation moves on to an OpenAI model, which could not decrypt it', async () => {
    anthropic.answerWith(recordedAnthropicAnswer({ stream: 'anthropic/messages-stream-thinking-then-tool-use.sse' }));
    const tools = [{ ...lookup, name: 'fixed_version' }];
    const first = await gateway.openai(key).responses.stream({ model: 'claude-haiku-4-5', input: 'Which version?', reasoning: { effort: 'low' }, store: false, include: ['reasoning.encrypted_content'], tools }).finalResponse();
    expect(first.output.map((item) => item.type)).toEqual(['reasoning', 'function_call']);

    openai.answerWith(recordedResponsesAnswer({ stream: 'responses-stream-text.sse' }));
    const history = [{ role: 'user' as const, content: 'Which version?' }, ...(first.output as OpenAI.Responses.ResponseInputItem[]), { type: 'function_call_output' as const, call_id: 'toolu_01825dXWLSoJwCst1qTsiWdb', output: '2.1.129' }];
    await gateway.openai(key).responses.stream({ model: 'openai/gpt-5.5', input: history, reasoning: { effort: 'low' }, store: false, include: ['reasoning.encrypted_content'], tools }).finalResponse();
    const sent = openai.received.at(-1)?.body.input as Array<{ type?: string }>;
    expect(sent.map((item) => item.type ?? 'message')).toEqual(['message', 'function_call', 'function_call_output']);
  });

  it('refuses previous_response_id with a 400 that says why: the gateway keeps no conversation state for translated models', async () => {
    const error = await gateway.openai(key).responses.create({ model: 'claude-haiku-4-5', input: 'x', previous_response_id: 'resp_1' }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error).toMatchObject({ code: 'previous_response_not_supported', param: 'previous_response_id' });
  });

  it('answers Anthropic’s prompt-too-long 400 with OpenAI’s code context_length_exceeded, on which Codex compacts the conversation', async () => {
    const tooLong = { type: 'error', error: { type: 'invalid_request_error', message: 'prompt is too long: 208310 tokens > 200000 maximum' }, request_id: 'req_011' };
    anthropic.answerWith((_request, response) => sendJson(response, 400, tooLong));
    const error = await gateway.openai(key).responses.create({ model: 'claude-haiku-4-5', input: 'x' }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error).toMatchObject({ code: 'context_length_exceeded', type: 'invalid_request_error', message: expect.stringContaining('prompt is too long') });
  });

  it('answers a provider 429 in OpenAI’s error body, and fails over from a failing OpenAI model to the Anthropic one', async () => {
    anthropic.answerWith((_request, response) => sendJson(response, 429, readFixture('anthropic/messages-error-429-rate-limit.json'), { 'retry-after': '3' }));
    const limited = await gateway.openai(key).responses.create({ model: 'claude-haiku-4-5', input: 'x' }).catch((thrown: unknown) => thrown);
    expect(limited).toBeInstanceOf(OpenAI.RateLimitError);

    openai.answerWith((_request, response) => sendJson(response, 500, { error: { message: 'boom', type: 'server_error' } }));
    anthropic.answerWith(recordedAnthropicAnswer());
    const { data: served, response: raw } = await gateway
      .openai(key)
      .responses.create({ model: 'openai/gpt-5.5', models: ['anthropic/claude-haiku-4-5'], route: 'fallback', input: 'x' } as OpenAI.Responses.ResponseCreateParamsNonStreaming)
      .withResponse();
    expect(served.output_text).toBeTruthy();
    expect(raw.headers.get('x-gateway-model')).toBe('anthropic/claude-haiku-4-5');
    expect(await generation(raw.headers.get('x-request-id') ?? '')).toMatchObject({ endpoint: 'responses', model: 'anthropic/claude-haiku-4-5', fallback_attempts: 1 });
  });
});

describe('/v1/responses on a provider without the Responses API', () => {
  it('translates to chat completions', async () => {
    vllm.answerWith((_request, response) => sendJson(response, 200, readFixture('openai-chat/chat-nonstream-text-usage-details.json')));
    vllm.received.length = 0;
    const response = await gateway.openai(key).responses.create({ model: 'vllm/qwen3-8b', input: 'Hello' });
    expect(vllm.received[0]).toMatchObject({ path: '/v1/chat/completions', body: { model: 'qwen3-8b', messages: [{ role: 'user', content: 'Hello' }] } });
    expect(response.output_text).toBe((JSON.parse(readFixture('openai-chat/chat-nonstream-text-usage-details.json')) as { choices: Array<{ message: { content: string } }> }).choices[0]?.message.content);
  });
});

describe('a model only the Responses API serves', () => {
  it('serves chat completions clients through translation: the provider gets /responses, the SDK a chat completion', async () => {
    openai.answerWith(recordedResponsesAnswer({ json: 'responses-nonstream-function-call.json' }));
    openai.received.length = 0;
    const completion = await gateway.openai(key).chat.completions.create({
      model: 'openai/o3-pro',
      messages: [{ role: 'user', content: 'Weather in the Peak District?' }],
      tools: [{ type: 'function', function: { name: 'get_current_weather', parameters: { type: 'object', properties: { location: { type: 'string' } } } } }],
    });
    expect(openai.received[0]).toMatchObject({ path: '/v1/responses', body: { model: 'o3-pro', store: false, input: [{ type: 'message', role: 'user' }] } });
    expect(completion.choices[0]).toMatchObject({ finish_reason: 'tool_calls', message: { tool_calls: [{ type: 'function', function: { name: 'get_current_weather', arguments: '{"location":"Peak District"}' } }] } });
  });

  it('streams to chat clients and to Anthropic clients from the recorded Responses stream', async () => {
    openai.answerWith(recordedResponsesAnswer({ stream: 'responses-stream-function-call.sse' }));
    const chat = gateway.openai(key).chat.completions.stream({ model: 'openai/o3-pro', messages: [{ role: 'user', content: 'Multiply' }], stream_options: { include_usage: true } });
    const completion = await chat.finalChatCompletion();
    expect(completion.choices[0]?.message.tool_calls?.[0]).toMatchObject({ type: 'function', function: { name: 'multiply' } });

    const claude = new Anthropic({ authToken: key, apiKey: null, baseURL: gateway.url, maxRetries: 0 });
    const message = await claude.messages.stream({ model: 'openai/o3-pro', max_tokens: 300, messages: [{ role: 'user', content: 'Multiply' }] }).finalMessage();
    expect(message.stop_reason).toBe('tool_use');
    expect(message.content.find((block) => block.type === 'tool_use')).toMatchObject({ name: 'multiply', input: { a: 1231, b: 2331 } });
    expect(openai.received.at(-1)).toMatchObject({ path: '/v1/responses', body: { model: 'o3-pro', stream: true, max_output_tokens: 300 } });
  });
});
