import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordedAnthropicAnswer } from '../support/fake-anthropic-upstream.ts';
import { sendJson, sendSse, sseEvents, startFakeOpenAiUpstream, type FakeUpstream } from '../support/fake-openai-upstream.ts';
import { readFixture } from '../support/fixtures.ts';
import { startTestGateway, type TestGateway } from '../support/test-gateway.ts';

let gateway: TestGateway;
let anthropic: FakeUpstream;
let openai: FakeUpstream;
let key: string;
let costedKey: string;

beforeAll(async () => {
  anthropic = await startFakeOpenAiUpstream();
  openai = await startFakeOpenAiUpstream();
  gateway = await startTestGateway();
  await gateway.admin({ command: 'project.create', projectId: 'mixed' });
  await gateway.admin({ command: 'provider.set', projectId: 'mixed', provider: 'anthropic', apiKey: 'sk-ant-upstream-0123456789', baseUrl: anthropic.baseUrl });
  await gateway.admin({ command: 'provider.set', projectId: 'mixed', provider: 'openai', apiKey: 'sk-openai-upstream-0123456789', baseUrl: openai.baseUrl });
  await gateway.admin({ command: 'model.allow', projectId: 'mixed', slug: 'anthropic/claude-haiku-4-5', inputMicrosPer1k: 1000, outputMicrosPer1k: 5000 });
  await gateway.admin({ command: 'model.allow', projectId: 'mixed', slug: 'anthropic/claude-opus-4-7', inputMicrosPer1k: 5000, outputMicrosPer1k: 25000 });
  await gateway.admin({ command: 'model.allow', projectId: 'mixed', slug: 'openai/gpt-4o-mini', inputMicrosPer1k: 150, outputMicrosPer1k: 600 });
  key = (await gateway.admin<{ key: string }>({ command: 'key.create', projectId: 'mixed' })).key;
  await gateway.admin({ command: 'project.create', projectId: 'mixed-costed' });
  await gateway.admin({ command: 'provider.set', projectId: 'mixed-costed', provider: 'openai', apiKey: 'sk-openai-upstream-0123456789', baseUrl: openai.baseUrl });
  await gateway.admin({ command: 'model.allow', projectId: 'mixed-costed', slug: 'openai/gpt-4o-mini', inputMicrosPer1k: 150, outputMicrosPer1k: 600 });
  await gateway.admin({ command: 'project.update', projectId: 'mixed-costed', usageInjection: true });
  costedKey = (await gateway.admin<{ key: string }>({ command: 'key.create', projectId: 'mixed-costed' })).key;
});

afterAll(async () => {
  await gateway.close();
  await anthropic.close();
  await openai.close();
});

const multiply = { type: 'function' as const, function: { name: 'multiply', description: 'Multiplies', parameters: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } } } };

describe('/v1/chat/completions with an Anthropic model', () => {
  it('sends the provider a Messages request and gives the OpenAI SDK a chat completion with tool calls', async () => {
    anthropic.answerWith(recordedAnthropicAnswer({ json: 'anthropic/messages-nonstream-parallel-tool-use.json' }));
    anthropic.received.length = 0;

    const completion = await gateway.openai(key).chat.completions.create({
      model: 'anthropic/claude-haiku-4-5',
      messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Weather in Paris and London?' }],
      tools: [multiply],
    });

    const sent = anthropic.received[0];
    expect(sent?.path).toBe('/v1/messages');
    expect(sent?.headers['x-api-key']).toBe('sk-ant-upstream-0123456789');
    expect(sent?.body).toMatchObject({ model: 'claude-haiku-4-5', system: [{ type: 'text', text: 'Be brief.' }], max_tokens: 4096 });
    expect(completion.object).toBe('chat.completion');
    expect(completion.choices[0]?.finish_reason).toBe('tool_calls');
    expect(completion.choices[0]?.message.tool_calls?.length).toBeGreaterThan(1);
  });

  it('streams an Anthropic tool-use stream to the OpenAI SDK as chat chunks, usage chunk included', async () => {
    anthropic.answerWith(recordedAnthropicAnswer({ stream: 'anthropic/messages-stream-tool-use-input-json-delta.sse' }));
    const stream = await gateway.openai(key).chat.completions.create({
      model: 'anthropic/claude-haiku-4-5',
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: 'user', content: 'x' }],
      tools: [multiply],
    });
    let args = '';
    let finish: string | null = null;
    let usage: OpenAI.CompletionUsage | undefined;
    for await (const chunk of stream) {
      args += chunk.choices[0]?.delta.tool_calls?.[0]?.function?.arguments ?? '';
      finish = chunk.choices[0]?.finish_reason ?? finish;
      usage = chunk.usage ?? usage;
    }
    expect(() => JSON.parse(args) as unknown).not.toThrow();
    expect(finish).toBe('tool_calls');
    expect(usage?.completion_tokens).toBeGreaterThan(0);
  });

  it('names the fields the translation had no place for in x-gateway-dropped-fields, and none on a native answer', async () => {
    anthropic.answerWith(recordedAnthropicAnswer({ json: 'anthropic/messages-nonstream-parallel-tool-use.json' }));
    const translated = await gateway
      .openai(key)
      .chat.completions.create({ model: 'anthropic/claude-haiku-4-5', messages: [{ role: 'user', content: 'Weather in Paris?' }], seed: 7, frequency_penalty: 0.5 })
      .withResponse();
    expect(translated.response.headers.get('x-gateway-dropped-fields')?.split(', ')).toEqual(expect.arrayContaining(['seed', 'frequency_penalty']));

    openai.answerWith((_request, response) => sendJson(response, 200, readFixture('openai-chat/chat-nonstream-text-usage-details.json')));
    const native = await gateway.openai(key).chat.completions.create({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }], seed: 7 }).withResponse();
    expect(native.response.headers.get('x-gateway-dropped-fields')).toBeNull();
  });

  it('answers a provider 400 in the OpenAI error format with its message', async () => {
    anthropic.answerWith((_request, response) => sendJson(response, 400, readFixture('anthropic/messages-error-400-invalid-request.json')));
    const error = await gateway.openai(key).chat.completions.create({ model: 'anthropic/claude-haiku-4-5', messages: [{ role: 'user', content: 'x' }] }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as InstanceType<typeof OpenAI.APIError>).type).toBe('invalid_request_error');
  });
});

describe('/v1/messages with an OpenAI-compatible model', () => {
  const client = () => new Anthropic({ authToken: key, apiKey: null, baseURL: gateway.url, maxRetries: 0 });

  it('sends the provider a chat request and streams back well-formed message events with tool use', async () => {
    openai.answerWith((_request, response) => sendSse(response, sseEvents(readFixture('openai-chat/chat-stream-tool-calls-include-usage.sse'))));
    openai.received.length = 0;

    const final = await client()
      .messages.stream({
        model: 'gpt-4o-mini',
        max_tokens: 256,
        messages: [{ role: 'user', content: 'multiply 1231 by 2331' }],
        tools: [{ name: 'multiply', description: 'Multiplies', input_schema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } } }],
      })
      .finalMessage();

    const sent = openai.received[0];
    expect(sent?.path).toBe('/v1/chat/completions');
    expect(sent?.headers.authorization).toBe('Bearer sk-openai-upstream-0123456789');
    expect(sent?.body).toMatchObject({ model: 'gpt-4o-mini', stream: true, stream_options: { include_usage: true }, max_completion_tokens: 256 });
    expect(final.stop_reason).toBe('tool_use');
    expect(final.content).toEqual([expect.objectContaining({ type: 'tool_use', name: 'multiply', input: { a: 1231, b: 2331 } })]);
    expect(final.usage.output_tokens).toBeGreaterThan(0);
  });

  it("answers a chat completion its provider ended with finish_reason \"error\" as a 502 api_error, never as a finished message", async () => {
    const failed = { id: 'chatcmpl-err', object: 'chat.completion', created: 1_740_823_200, model: 'gpt-4o-mini', choices: [{ index: 0, message: { role: 'assistant', content: 'Partial' }, finish_reason: 'error' }], usage: { prompt_tokens: 9, completion_tokens: 3, total_tokens: 12 } };
    openai.answerWith((_request, response) => sendJson(response, 200, failed));

    await expect(client().messages.create({ model: 'gpt-4o-mini', max_tokens: 64, messages: [{ role: 'user', content: 'Hi' }] })).rejects.toMatchObject({
      status: 502,
      error: { error: { type: 'api_error', message: 'Provider "openai" ended its answer as failed (error).' } },
    });
  });

  it('ends a message stream its chat provider finished with finish_reason "error" with an error event, never a message_stop', async () => {
    const chunk = (delta: Record<string, unknown>, finishReason: string | null) => `data: ${JSON.stringify({ id: 'chatcmpl-err', object: 'chat.completion.chunk', model: 'gpt-4o-mini', choices: [{ index: 0, delta, finish_reason: finishReason }] })}\n\n`;
    openai.answerWith((_request, response) => sendSse(response, [chunk({ role: 'assistant', content: 'Part' }, null), chunk({}, 'error'), 'data: [DONE]\n\n']));

    const events: string[] = [];
    const failure = await (async () => {
      const stream = await client().messages.create({ model: 'gpt-4o-mini', max_tokens: 64, stream: true, messages: [{ role: 'user', content: 'Hi' }] });
      for await (const event of stream) events.push(event.type);
    })().catch((error: unknown) => error);

    expect(failure).toMatchObject({ error: { error: { type: 'api_error', message: 'Provider "openai" ended its answer as failed (error).' } } });
    expect(events).not.toContain('message_stop');
  });

  it('keeps the whole input of each parallel tool call when the provider interleaves their arguments', async () => {
    // The shape some OpenAI-compatible servers stream: both calls named, then arguments for each in turn.
    const toolCalls = (...calls: Array<Record<string, unknown>>) => ({ id: 'chatcmpl-1', model: 'gpt-4o-mini', choices: [{ index: 0, delta: { tool_calls: calls }, finish_reason: null }] });
    const chunks = [
      toolCalls({ index: 0, id: 'call_a', type: 'function', function: { name: 'multiply', arguments: '' } }),
      toolCalls({ index: 1, id: 'call_b', type: 'function', function: { name: 'multiply', arguments: '' } }),
      toolCalls({ index: 0, function: { arguments: '{"a": 2,' } }),
      toolCalls({ index: 1, function: { arguments: '{"a": 4,' } }),
      toolCalls({ index: 0, function: { arguments: ' "b": 3}' } }),
      toolCalls({ index: 1, function: { arguments: ' "b": 5}' } }),
      { id: 'chatcmpl-1', model: 'gpt-4o-mini', choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] },
      { id: 'chatcmpl-1', model: 'gpt-4o-mini', choices: [], usage: { prompt_tokens: 20, completion_tokens: 30, total_tokens: 50 } },
    ];
    openai.answerWith((_request, response) => sendSse(response, [...chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`), 'data: [DONE]\n\n']));

    const final = await client()
      .messages.stream({
        model: 'gpt-4o-mini',
        max_tokens: 256,
        messages: [{ role: 'user', content: 'multiply 2 by 3 and 4 by 5' }],
        tools: [{ name: 'multiply', description: 'Multiplies', input_schema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } } }],
      })
      .finalMessage();

    expect(final.stop_reason).toBe('tool_use');
    expect(final.content).toEqual([
      expect.objectContaining({ type: 'tool_use', id: 'call_a', name: 'multiply', input: { a: 2, b: 3 } }),
      expect.objectContaining({ type: 'tool_use', id: 'call_b', name: 'multiply', input: { a: 4, b: 5 } }),
    ]);
  });

  it('answers a non-streaming request with a Messages response', async () => {
    openai.answerWith((_request, response) => sendJson(response, 200, readFixture('openai-chat/chat-nonstream-text-usage-details.json')));
    const message = await client().messages.create({ model: 'openai/gpt-4o-mini', max_tokens: 64, messages: [{ role: 'user', content: 'hi' }] });
    expect(message).toMatchObject({ type: 'message', role: 'assistant', stop_reason: 'end_turn' });
    expect(message.content[0]).toMatchObject({ type: 'text' });
  });

  describe('with usage-cost injection', () => {
    const costed = () => new Anthropic({ authToken: costedKey, apiKey: null, baseURL: gateway.url, maxRetries: 0 });
    /** Anthropic usage priced by the rate card: 150 and 600 nano-USD per input and output token. */
    const costOf = (usage: { input_tokens: number; cache_read_input_tokens?: number | null; output_tokens: number }) =>
      ((usage.input_tokens + (usage.cache_read_input_tokens ?? 0)) * 150 + usage.output_tokens * 600) / 1e9;

    it('adds usage.cost to a translated message', async () => {
      openai.answerWith((_request, response) => sendJson(response, 200, readFixture('openai-chat/chat-nonstream-text-usage-details.json')));
      const message = await costed().messages.create({ model: 'openai/gpt-4o-mini', max_tokens: 64, messages: [{ role: 'user', content: 'hi' }] });
      const usage = message.usage as unknown as { input_tokens: number; cache_read_input_tokens: number; output_tokens: number; cost: number };
      expect(usage.output_tokens).toBeGreaterThan(0);
      expect(usage.cost).toBe(costOf(usage));
    });

    it('ends a translated stream with usage and its cost in message_delta', async () => {
      openai.answerWith((_request, response) => sendSse(response, sseEvents(readFixture('openai-chat/chat-stream-tool-calls-include-usage.sse'))));
      const stream = costed().messages.stream({ model: 'openai/gpt-4o-mini', max_tokens: 64, messages: [{ role: 'user', content: 'multiply' }] });
      const deltas: Anthropic.MessageDeltaEvent[] = [];
      stream.on('streamEvent', (event) => {
        if (event.type === 'message_delta') deltas.push(event);
      });
      const final = await stream.finalMessage();
      expect(final.stop_reason).toBe('tool_use');
      const usage = deltas[0]?.usage as unknown as { input_tokens: number; cache_read_input_tokens: number; output_tokens: number; cost: number };
      expect(usage.output_tokens).toBeGreaterThan(0);
      expect(usage.cost).toBe(costOf(usage));
    });
  });

  it('answers a provider 429 in the Anthropic error format, keeping the status', async () => {
    openai.answerWith((_request, response) => sendJson(response, 429, readFixture('openai-chat/chat-error-429-rate-limit-exceeded-2024.json')));
    const response = await fetch(`${gateway.url}/v1/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(response.status).toBe(429);
    // Named by the gateway's request id in the body too, as Anthropic's errors name theirs.
    const requestId = response.headers.get('request-id');
    expect(requestId).toBeTruthy();
    expect(await response.json()).toMatchObject({ type: 'error', error: { type: 'rate_limit_error' }, request_id: requestId });
  });

  it('counts tokens with the tokenizer for a non-Anthropic model, and says it is an estimate', async () => {
    const { data, response } = await client().messages.countTokens({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hello world, this is a test' }] }).withResponse();
    expect(data.input_tokens).toBeGreaterThanOrEqual(7);
    expect(response.headers.get('x-gateway-token-count')).toBe('estimated');
  });
});

describe('/v1/messages without max_tokens', () => {
  it('is refused as Anthropic refuses it, whatever provider serves the model, before a provider is asked; count_tokens takes none', async () => {
    openai.received.length = 0;
    const response = await fetch(`${gateway.url}/v1/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ type: 'error', error: { type: 'invalid_request_error', message: 'max_tokens: Field required' } });
    expect(openai.received).toEqual([]);
    const counted = await fetch(`${gateway.url}/v1/messages/count_tokens`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] }),
    });
    expect(counted.status).toBe(200);
  });
});

describe('/v1/messages with an OpenAI model whose account has no quota', () => {
  it('answers its 429 insufficient_quota so that the Anthropic SDK does not retry it (x-should-retry: false, no retry-after)', async () => {
    await gateway.admin({ command: 'project.create', projectId: 'no-quota' });
    await gateway.admin({ command: 'provider.set', projectId: 'no-quota', provider: 'openai', apiKey: 'sk-openai-upstream-0123456789', baseUrl: openai.baseUrl });
    await gateway.admin({ command: 'model.allow', projectId: 'no-quota', slug: 'openai/gpt-4o-mini' });
    const noQuotaKey = (await gateway.admin<{ key: string }>({ command: 'key.create', projectId: 'no-quota' })).key;
    openai.answerWith((_request, response) => sendJson(response, 429, readFixture('openai-responses/responses-error-429-insufficient-quota.json'), { 'retry-after': '20' }));
    openai.received.length = 0;

    const client = new Anthropic({ authToken: noQuotaKey, apiKey: null, baseURL: gateway.url, maxRetries: 2 });
    const error = await client.messages.create({ model: 'gpt-4o-mini', max_tokens: 16, messages: [{ role: 'user', content: 'Hi' }] }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(Anthropic.RateLimitError);
    expect((error as InstanceType<typeof Anthropic.RateLimitError>).headers?.get('retry-after')).toBeNull();
    expect(openai.received).toHaveLength(1);
  });
});
