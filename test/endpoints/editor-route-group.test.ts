import { describe, expect, it } from 'vitest';
import { createEditorRouteGroup } from '../../shared/endpoints/editor-route-group.ts';
import { createOpenAiRouteGroup } from '../../shared/endpoints/openai-route-group.ts';
import { asWebStream, type GatewayRequest, type GatewayResponse } from '../../shared/http/gateway-http.ts';
import { sseData, responsesFixtureBody, anthropicFixtureBody, chatFixtureBody } from '../canonical/support/sse-replay.ts';
import { readChatStreamWithOpenAiSdk } from '../canonical/support/openai-sdk-stream.ts';
import { splitFrames } from '../canonical/support/translate.ts';
import { createFakeGateway, FAKE_KEY, fakeProvider } from '../support/fake-gateway-services.ts';
import { readFixture } from '../support/fixtures.ts';
import { cursorResponsesBody, PATCH } from '../protocols/editor-chat/cursor-bodies.ts';

const NOW = Date.UTC(2026, 4, 1, 12, 0, 0);
const RATE = { inputPriceMicrosPer1k: 1250, outputPriceMicrosPer1k: 10_000 };

interface UpstreamCall {
  url: string;
  body: Record<string, unknown>;
}

/**
 * The editor's route groups over in-memory services: an OpenAI provider that serves the Responses API, an
 * Anthropic one and a chat-only one, each answering with the recorded stream the test names.
 */
function gateway(answer: (call: UpstreamCall) => Response) {
  const calls: UpstreamCall[] = [];
  const fake = createFakeGateway({
    providers: [fakeProvider('openai', ['openai-chat', 'openai-responses']), fakeProvider('anthropic', ['anthropic-messages'], 'x-api-key'), fakeProvider('groq', ['openai-chat'])],
    models: [{ slug: 'openai/gpt-5.4' }, { slug: 'anthropic/claude-sonnet-4-5' }, { slug: 'groq/llama-3.3-70b' }],
    rates: [{ slug: 'openai/gpt-5.4', ...RATE }],
    fetch: async (url, init) => {
      const call = { url, body: JSON.parse(String(init.body)) as Record<string, unknown> };
      calls.push(call);
      return answer(call);
    },
  });
  fake.services.clock = { now: () => NOW };
  return { ...fake, calls, editor: createEditorRouteGroup(fake.services), openai: createOpenAiRouteGroup(fake.services) };
}

const sse = (body: string, status = 200) => new Response(body, { status, headers: { 'content-type': 'text/event-stream' } });

function post(path: string, body: unknown, headers: Record<string, string> = {}): GatewayRequest {
  return {
    method: 'POST',
    path,
    query: new URLSearchParams(),
    headers: { authorization: `Bearer ${FAKE_KEY}`, 'x-request-id': 'req-editor-1', 'user-agent': 'Cursor/3.14.27', ...headers },
    body: Buffer.from(JSON.stringify(body)),
    sourceIp: '203.0.113.9',
  };
}

async function framesOf(response: GatewayResponse): Promise<string[]> {
  return splitFrames(typeof response.body === 'string' ? response.body : await new Response(asWebStream(response.body)).text());
}

describe('POST /v1/editor/chat/completions to a provider that serves the Responses API', () => {
  it('sends the rewritten body to /responses and answers with the chat chunks, metered with tokens, cost, savings and the conversation', async () => {
    const fake = gateway(() => sse(responsesFixtureBody('azure-responses-parallel-function-calls.sse')));
    const response = await fake.editor(post('/v1/editor/chat/completions', { ...cursorResponsesBody(), model: 'openai/gpt-5.4' }));
    const frames = await framesOf(response);

    expect(fake.calls.map((call) => call.url)).toEqual(['https://openai.example/v1/responses']);
    expect(fake.calls[0]?.body).toMatchObject({ model: 'gpt-5.4', prompt_cache_key: '5e66cef0-7372-496e-aa21-476a66401a2a', service_tier: 'priority', store: false, stream: true });
    expect(fake.calls[0]?.body).not.toHaveProperty('metadata');
    expect(fake.calls[0]?.body).not.toHaveProperty('stream_options');
    expect(response.status).toBe(200);
    expect(response.headers).toMatchObject({ 'content-type': 'text/event-stream', 'x-gateway-model': 'openai/gpt-5.4', 'x-request-id': 'req-editor-1' });

    const read = await readChatStreamWithOpenAiSdk(frames);
    expect(read.toolCalls.map((call) => call.id)).toEqual(['call_Dke46usJNOchzqyvXSJQQMXP', 'call_jefCQLGSyAUpkBE78xklruzf']);
    expect(read.finishReason).toBe('tool_calls');
    expect(read.usage).toMatchObject({ prompt_tokens: 5914, completion_tokens: 92 });
    expect(JSON.parse(frames[0]?.slice(6) ?? '')).toMatchObject({ created: NOW / 1000, model: 'gpt-5' });

    expect(fake.records).toHaveLength(1);
    expect(fake.records[0]).toMatchObject({
      requestId: 'req-editor-1',
      endpoint: 'editor.chat_completions',
      model: 'openai/gpt-5.4',
      status: 'completed',
      httpStatus: 200,
      promptTokens: 5914,
      completionTokens: 92,
      costNanos: 5914 * 1250 + 92 * 10_000,
      finishReason: 'completed',
      attribution: { sessionId: '5e66cef0-7372-496e-aa21-476a66401a2a', userAgent: 'Cursor/3.14.27' },
    });
    expect(fake.records[0]?.compressionSavedTokens).toBeGreaterThan(30);
  });

  it('answers an upstream failure that came before any content with its status and words, and meters it with that status', async () => {
    const fake = gateway(() => sse(responsesFixtureBody('openai-responses-error-failed.chunks.jsonl')));
    const response = await fake.editor(post('/v1/editor/chat/completions', { ...cursorResponsesBody(), model: 'openai/gpt-5.4' }));
    expect(response.status).toBe(429);
    expect(JSON.parse(String(response.body))).toEqual({
      error: {
        message: expect.stringMatching(/^The provider account behind this model has no quota left .*: You exceeded your current quota/),
        type: 'insufficient_quota',
        code: 'upstream_insufficient_quota',
        param: null,
      },
    });
    expect(response.headers).toMatchObject({ 'x-request-id': 'req-editor-1', 'x-gateway-model': 'openai/gpt-5.4' });
    expect(fake.records).toEqual([expect.objectContaining({ status: 'failed', httpStatus: 429, errorCode: 'upstream_insufficient_quota' })]);
  });

  it('relays a refusal of the request in OpenAI’s error format, with the provider’s status', async () => {
    const fake = gateway(() => new Response(readFixture('openai-responses/responses-error-400-invalid-temperature.json'), { status: 400, headers: { 'content-type': 'application/json' } }));
    const response = await fake.editor(post('/v1/editor/chat/completions', { ...cursorResponsesBody(), model: 'openai/gpt-5.4' }));
    expect(response.status).toBe(400);
    expect(JSON.parse(String(response.body))).toMatchObject({ error: { type: 'invalid_request_error', message: expect.stringContaining('temperature') } });
    expect(fake.records).toEqual([expect.objectContaining({ status: 'failed', httpStatus: 400 })]);
  });

  it('answers a request without `stream` with one chat completion (ApplyPatch as a function call with the raw patch)', async () => {
    const completed = sseData(responsesFixtureBody('openai-responses-custom-tool-call.chunks.jsonl')).map((data) => JSON.parse(data) as { type: string; response?: unknown }).find((event) => event.type === 'response.completed')?.response;
    const fake = gateway(() => new Response(JSON.stringify(completed), { headers: { 'content-type': 'application/json' } }));
    const response = await fake.editor(post('/v1/editor/chat/completions', { ...cursorResponsesBody(), stream: false, model: 'openai/gpt-5.4' }));
    expect(response.status).toBe(200);
    expect(JSON.parse(String(response.body))).toMatchObject({
      object: 'chat.completion',
      choices: [{ message: { tool_calls: [{ id: 'call_g8yRNFvYwhYY5Eb3rGIAxf8l', type: 'function', function: { name: 'setHtml', arguments: expect.stringMatching(/^<main>/) } }] }, finish_reason: 'tool_calls' }],
    });
  });
});

describe('POST /v1/editor/chat/completions when the provider’s stream breaks off', () => {
  /** A recorded stream's first events (the Responses text turn's unless given), then a broken connection. */
  function brokenAfter(eventCount: number, recorded = responsesFixtureBody('azure-responses-text-pong.sse')): Response {
    const events = recorded.split(/(?<=\n\n)/).slice(0, eventCount);
    const encoder = new TextEncoder();
    // One event a read, then the error (an error in `start` would discard what was queued).
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const event = events.shift();
        if (event) controller.enqueue(encoder.encode(event));
        else controller.error(new Error('socket hang up'));
      },
    });
    return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
  }

  it('after content: the answer so far, the failure as text, stop and [DONE]; metered as failed', async () => {
    const events = responsesFixtureBody('azure-responses-text-pong.sse').split(/(?<=\n\n)/);
    const upToDelta = events.findIndex((event) => event.startsWith('event: response.output_text.delta')) + 1;
    const fake = gateway(() => brokenAfter(upToDelta));
    const response = await fake.editor(post('/v1/editor/chat/completions', { ...cursorResponsesBody(), model: 'openai/gpt-5.4' }));
    expect(response.status).toBe(200);
    const read = await readChatStreamWithOpenAiSdk(await framesOf(response));
    expect(read.text).toBe('pong\n\n[The gateway could not finish this answer: Provider "openai" broke off the stream.]');
    expect(read.finishReason).toBe('stop');
    expect(fake.records).toEqual([expect.objectContaining({ status: 'failed', httpStatus: 502, errorCode: 'upstream_stream_interrupted' })]);
  });

  it.each([
    ['a Responses upstream', 'openai/gpt-5.4', responsesFixtureBody('azure-responses-text-pong.sse'), 'event: response.output_text.delta'],
    ['a chat upstream', 'groq/llama-3.3-70b', chatFixtureBody('chat-stream-text-include-usage.sse'), 'data: {"id":"chatcmpl-BWlJCN7VZTtSHROczp0AbrjFGhRMA","object":"chat.completion.chunk","created":1747148050,"model":"gpt-4o-mini-2024-07-18","service_tier":"default","system_fingerprint":"fp_0392822090","choices":[{"index":0,"delta":{"content":" of"}'],
  ])('after content, from %s, with `include_usage`: the usage chunk the request is metered with, before [DONE]', async (_upstream, model, recorded, lastEventSent) => {
    const events = recorded.split(/(?<=\n\n)/);
    const fake = gateway(() => brokenAfter(events.findIndex((event) => event.startsWith(lastEventSent)) + 1, recorded));
    const response = await fake.editor(post('/v1/editor/chat/completions', { ...cursorResponsesBody(), model, stream_options: { include_usage: true } }));
    const frames = await framesOf(response);
    expect(frames.at(-1)).toBe('data: [DONE]\n\n');
    const read = await readChatStreamWithOpenAiSdk(frames);
    expect(read.text).toMatch(/\n\n\[The gateway could not finish this answer: Provider "(openai|groq)" broke off the stream\.\]$/);
    expect(read.finishReason).toBe('stop');
    const [record] = fake.records;
    expect(record).toMatchObject({ status: 'failed', errorCode: 'upstream_stream_interrupted' });
    expect(read.usage).toEqual(expect.objectContaining({ prompt_tokens: record?.promptTokens, completion_tokens: record?.completionTokens }));
    expect(record?.completionTokens).toBeGreaterThan(0);
  });

  it('before content: an HTTP error the editor shows, metered with it', async () => {
    const fake = gateway(() => brokenAfter(2));
    const response = await fake.editor(post('/v1/editor/chat/completions', { ...cursorResponsesBody(), model: 'openai/gpt-5.4' }));
    expect(response.status).toBe(502);
    expect(JSON.parse(String(response.body))).toMatchObject({ error: { code: 'upstream_stream_interrupted', message: 'Provider "openai" broke off the stream.' } });
    expect(fake.records).toEqual([expect.objectContaining({ status: 'failed', httpStatus: 502, errorCode: 'upstream_stream_interrupted' })]);
  });
});

describe('POST /v1/editor/chat/completions to providers without the Responses API (through the canonical model)', () => {
  it('reaches an Anthropic model: ApplyPatch as a tool taking its text, thinking in <think>, the call back as a function with the raw patch', async () => {
    const fake = gateway(() => sse(anthropicFixtureBody('messages-stream-thinking-then-tool-use.sse')));
    const body = cursorResponsesBody('fix the bug', [
      { type: 'function_call', call_id: 'toolu_prev', name: 'ApplyPatch', arguments: PATCH },
      { type: 'function_call_output', call_id: 'toolu_prev', output: 'Done.' },
    ]);
    const response = await fake.editor(post('/v1/editor/chat/completions', { ...body, model: 'anthropic/claude-sonnet-4-5' }));
    const frames = await framesOf(response);
    expect(fake.calls[0]?.url).toBe('https://anthropic.example/v1/messages');
    const sent = fake.calls[0]?.body as { tools: Array<{ name: string; input_schema: unknown }>; messages: Array<{ role: string; content: unknown }>; system: unknown };
    expect(sent.tools.map((tool) => tool.name)).toEqual(['ReadFile', 'ApplyPatch']);
    expect(sent.tools[1]?.input_schema).toMatchObject({ properties: { input: { type: 'string' } } });
    expect(JSON.stringify(sent.messages)).toContain('"id":"toolu_prev"');
    const read = await readChatStreamWithOpenAiSdk(frames, { parseArguments: false });
    expect(read.text).toMatch(/^<think>\n[\s\S]+\n<\/think>\n\n/);
    expect(read.completion.choices[0]?.message.tool_calls?.every((call) => call.type === 'function')).toBe(true);
    expect(read.finishReason).toBe('tool_calls');
    expect(fake.records[0]).toMatchObject({ endpoint: 'editor.chat_completions', model: 'anthropic/claude-sonnet-4-5', status: 'completed' });
  });

  it('reaches a chat-only provider with a chat completion request, and bridges its chat stream', async () => {
    const fake = gateway(() => sse(chatFixtureBody('chat-stream-tool-calls-include-usage.sse')));
    const recorded = JSON.parse(readFixture('editor/cursor-chat-request-parallel-tool-results.json')) as Record<string, unknown>;
    const response = await fake.editor(post('/v1/editor/chat/completions', { ...recorded, model: 'groq/llama-3.3-70b' }));
    const frames = await framesOf(response);
    expect(fake.calls[0]?.url).toBe('https://groq.example/v1/chat/completions');
    expect(fake.calls[0]?.body).toMatchObject({ model: 'llama-3.3-70b', stream: true, stream_options: { include_usage: true } });
    const messages = (fake.calls[0]?.body.messages ?? []) as Array<{ role: string; tool_call_id?: string }>;
    expect(messages.filter((message) => message.role === 'tool').map((message) => message.tool_call_id)).toEqual(['call_Dke46usJNOchzqyvXSJQQMXP', 'call_jefCQLGSyAUpkBE78xklruzf']);
    const read = await readChatStreamWithOpenAiSdk(frames);
    expect(read.toolCalls).toEqual([{ id: expect.stringMatching(/^call_/), name: 'multiply', input: { a: 1231, b: 2331 } }]);
    // The recorded Cursor body did not ask for usage: none is shown, it is metered all the same.
    expect(read.usage).toBeUndefined();
    expect(fake.records[0]).toMatchObject({ promptTokens: 54, completionTokens: 20 });
  });
});

describe('the editor route group’s other routes and errors', () => {
  it('accepts the /v1/... forms of the paths, and lists the models like /v1/models', async () => {
    const fake = gateway(() => sse(responsesFixtureBody('azure-responses-text-pong.sse')));
    expect((await fake.editor(post('/v1/editor/v1/chat/completions', { ...cursorResponsesBody(), model: 'gpt-5.4' }))).status).toBe(200);
    for (const path of ['/v1/editor/models', '/v1/editor/v1/models']) {
      const response = await fake.editor({ ...post(path, {}), method: 'GET', body: Buffer.alloc(0) });
      expect(response.status).toBe(200);
      expect(JSON.parse(String(response.body))).toMatchObject({ object: 'list', data: expect.arrayContaining([expect.objectContaining({ id: 'openai/gpt-5.4' })]) });
    }
  });

  it('answers GET /models/{id} (the OpenAI SDK’s models.retrieve) with the entry the list shows, on both forms of the path', async () => {
    const fake = gateway(() => sse(''));
    const get = (path: string) => fake.editor({ ...post(path, {}), method: 'GET', body: Buffer.alloc(0) });
    const listed = (JSON.parse(String((await get('/v1/editor/models')).body)) as { data: Array<{ id: string }> }).data.find((entry) => entry.id === 'openai/gpt-5.4');
    for (const path of ['/v1/editor/models/openai%2Fgpt-5.4', '/v1/editor/models/openai/gpt-5.4', '/v1/editor/v1/models/openai%2Fgpt-5.4', '/v1/editor/models/gpt-5.4']) {
      const response = await get(path);
      expect(response.status, path).toBe(200);
      expect(JSON.parse(String(response.body))).toEqual(listed);
    }
  });

  it('answers GET /models/{id} of a model the project does not allow with a 404 in OpenAI’s format, naming the editor’s list', async () => {
    const fake = gateway(() => sse(''));
    const response = await fake.editor({ ...post('/v1/editor/models/gpt-9', {}), method: 'GET', body: Buffer.alloc(0) });
    expect(response.status).toBe(404);
    expect(JSON.parse(String(response.body))).toEqual({
      error: { message: 'The model "gpt-9" is not on this project\'s allowlist. GET /v1/editor/models lists the models it may use.', type: 'not_found_error', code: 'model_not_found', param: 'model' },
    });
  });

  it('says where in the editor to put the key, the base URL and the model', async () => {
    const fake = gateway(() => sse(''));
    const noKey = await fake.editor({ ...post('/v1/editor/chat/completions', cursorResponsesBody()), headers: {} });
    expect(noKey.status).toBe(401);
    expect(JSON.parse(String(noKey.body)).error.message).toMatch(/OpenAI API Key.*\/v1\/editor/);
    const wrongBase = await fake.editor(post('/v1/editor/openai/chat/completions', cursorResponsesBody()));
    expect(wrongBase.status).toBe(404);
    expect(JSON.parse(String(wrongBase.body)).error.message).toMatch(/Override OpenAI Base URL.* \/v1\/editor .*\/v1\/editor\/openai/);
    const unknownModel = await fake.editor(post('/v1/editor/chat/completions', { ...cursorResponsesBody(), model: 'gpt-9' }));
    expect(unknownModel.status).toBe(404);
    expect(JSON.parse(String(unknownModel.body)).error).toMatchObject({ code: 'model_not_allowed', message: expect.stringMatching(/Settings → Models/) });
  });

  it('never tells a client to set the base URL it already uses: a path the route does not serve under /v1/editor says what it serves', async () => {
    const fake = gateway(() => sse(''));
    for (const [method, path] of [['POST', '/v1/editor/completions'], ['POST', '/v1/editor/v1/embeddings'], ['GET', '/v1/editor/files']]) {
      const response = await fake.editor({ ...post(path ?? '', {}), method: method ?? 'GET' });
      expect(response.status, path).toBe(404);
      const { message } = (JSON.parse(String(response.body)) as { error: { message: string } }).error;
      expect(message, path).not.toMatch(/Base URL/i);
      expect(message, path).toMatch(/serves only POST \/v1\/editor\/chat\/completions and GET \/v1\/editor\/models/);
    }
  });
});

describe('the editor on the legacy /v1/chat/completions', () => {
  it('gets the editor profile when detected by its User-Agent: the Responses API upstream, chat chunks back', async () => {
    const fake = gateway(() => sse(responsesFixtureBody('azure-responses-text-pong.sse')));
    const recorded = JSON.parse(readFixture('editor/cursor-chat-request-parallel-tool-call-turn.json')) as Record<string, unknown>;
    const response = await fake.openai(post('/v1/chat/completions', { ...recorded, model: 'openai/gpt-5.4' }));
    expect(fake.calls[0]?.url).toBe('https://openai.example/v1/responses');
    expect(fake.calls[0]?.body).not.toHaveProperty('temperature');
    expect((await readChatStreamWithOpenAiSdk(await framesOf(response))).text).toBe('pong');
    expect(fake.records[0]).toMatchObject({ endpoint: 'editor.chat_completions' });
  });

  it('leaves a plain chat client’s request to chat completions, as sent', async () => {
    const fake = gateway(() => sse(chatFixtureBody('chat-stream-text-include-usage.sse')));
    const chat = { model: 'openai/gpt-5.4', stream: true, messages: [{ role: 'user', content: 'Hello' }] };
    const response = await fake.openai(post('/v1/chat/completions', chat, { 'user-agent': 'OpenAI/JS 7.57.0' }));
    await framesOf(response);
    expect(fake.calls[0]?.url).toBe('https://openai.example/v1/chat/completions');
    expect(fake.records[0]).toMatchObject({ endpoint: 'chat.completions' });
  });
});
