import type { ServerResponse } from 'node:http';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryLocalUsage } from '../../tools/cli/local-usage-query.ts';
import { responsesFixtureBody } from '../canonical/support/sse-replay.ts';
import { readChatStreamWithOpenAiSdk } from '../canonical/support/openai-sdk-stream.ts';
import { splitFrames } from '../canonical/support/translate.ts';
import { refusalOfAnthropic } from '../support/anthropic-refusals.ts';
import { recordedAnthropicAnswer } from '../support/fake-anthropic-upstream.ts';
import { refusingAsProvider, sendSse, sseEvents, startFakeOpenAiUpstream, type FakeUpstream, type ReceivedRequest } from '../support/fake-openai-upstream.ts';
import { readFixture } from '../support/fixtures.ts';
import { startTestGateway, type TestGateway } from '../support/test-gateway.ts';
import { cursorResponsesBody, PATCH, TOOL_TURN_ITEMS } from '../protocols/editor-chat/cursor-bodies.ts';

let gateway: TestGateway;
let openai: FakeUpstream;
let anthropic: FakeUpstream;
let key: string;

/** The recorded Responses stream each request's last user words ask for. */
const RECORDINGS: Array<[RegExp, string]> = [
  [/parallel/, 'openai-responses/azure-responses-parallel-function-calls.sse'],
  [/patch/, 'openai-responses/openai-responses-custom-tool-call.chunks.jsonl'],
  [/quota/, 'openai-responses/openai-responses-error-failed.chunks.jsonl'],
  [/azure failure/, 'editor/azure-responses-error-server-error.sse'],
];

function answerFromRecordings(request: ReceivedRequest, response: ServerResponse) {
  const text = JSON.stringify(request.body.input ?? '');
  const recording = RECORDINGS.find(([pattern]) => pattern.test(text.slice(-400)))?.[1] ?? 'openai-responses/azure-responses-text-pong.sse';
  const [folder, name] = recording.split('/') as [string, string];
  return sendSse(response, sseEvents(folder === 'editor' ? readFixture(recording) : responsesFixtureBody(name)), 0);
}

beforeAll(async () => {
  openai = await startFakeOpenAiUpstream();
  openai.answerWith(answerFromRecordings);
  anthropic = await startFakeOpenAiUpstream();
  // Anthropic's side refuses what Anthropic refuses (anthropic-refusals.ts): the editor's translated turns must be taken.
  anthropic.answerWith(refusingAsProvider(refusalOfAnthropic, recordedAnthropicAnswer({ stream: 'anthropic/messages-stream-thinking-then-tool-use.sse' })));
  gateway = await startTestGateway();
  await gateway.admin({ command: 'project.create', projectId: 'cursor' });
  await gateway.admin({ command: 'provider.set', projectId: 'cursor', provider: 'anthropic', apiKey: 'sk-ant-upstream-0123456789', baseUrl: anthropic.baseUrl });
  await gateway.admin({ command: 'model.allow', projectId: 'cursor', slug: 'anthropic/claude-haiku-4-5' });
  await gateway.admin({ command: 'provider.set', projectId: 'cursor', provider: 'openai', apiKey: 'sk-openai-upstream-0123456789', baseUrl: openai.baseUrl });
  await gateway.admin({ command: 'model.allow', projectId: 'cursor', slug: 'openai/gpt-5.4', inputMicrosPer1k: 1250, outputMicrosPer1k: 10_000 });
  await gateway.admin({ command: 'model.allow', projectId: 'cursor', slug: 'openai/gpt-4o' });
  key = (await gateway.admin<{ key: string }>({ command: 'key.create', projectId: 'cursor' })).key;
});

afterAll(async () => {
  await gateway?.close();
  await openai?.close();
  await anthropic?.close();
});

/** A request as Cursor sends it: to `<base>/v1/editor/chat/completions`, its User-Agent, the key as its OpenAI key. */
function asCursor(body: unknown, requestId: string, path = '/v1/editor/chat/completions') {
  return fetch(`${gateway.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'user-agent': 'Cursor/3.14.27', 'x-request-id': requestId },
    body: JSON.stringify(body),
  });
}

interface Generation {
  endpoint: string;
  tokens_prompt: number;
  tokens_completion: number;
  total_cost: number;
  compression_saved_tokens: number | null;
  session_id: string | null;
  status: string;
  http_status: number;
  error_code: string | null;
}

async function generation(id: string): Promise<Generation> {
  await gateway.host.drainUsage();
  const response = await fetch(`${gateway.url}/v1/generation?id=${id}`, { headers: { authorization: `Bearer ${key}` } });
  expect(response.status).toBe(200);
  return (await response.json()) as Generation;
}

/** The frames with the clock's `created` set aside, for exact comparison. */
const withoutClock = (frames: string[]) => frames.map((frame) => frame.replace(/"created":\d+/, '"created":0'));

describe('Cursor through /v1/editor against a provider that serves the Responses API', () => {
  it('answers a text turn with the exact chunk stream, metered with tokens, cost and the compression savings', async () => {
    const response = await asCursor({ ...cursorResponsesBody('ping'), model: 'gpt-5.4' }, 'editor-text-1');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const envelope = '"id":"resp_68ca61ea133c8190a25851b67c2dc1fa000638fabbdbe241","object":"chat.completion.chunk","created":0,"model":"gpt-5"';
    expect(withoutClock(splitFrames(await response.text()))).toEqual([
      `data: {${envelope},"choices":[{"index":0,"delta":{"role":"assistant","content":""},"logprobs":null,"finish_reason":null}]}\n\n`,
      `data: {${envelope},"choices":[{"index":0,"delta":{"content":"pong"},"logprobs":null,"finish_reason":null}]}\n\n`,
      `data: {${envelope},"choices":[{"index":0,"delta":{},"logprobs":null,"finish_reason":"stop"}]}\n\n`,
      `data: {${envelope},"choices":[],"usage":{"prompt_tokens":8510,"completion_tokens":7,"total_tokens":8517,"prompt_tokens_details":{"cached_tokens":0},"completion_tokens_details":{"reasoning_tokens":0}}}\n\n`,
      'data: [DONE]\n\n',
    ]);

    const upstream = openai.received.at(-1);
    expect(upstream?.path).toBe('/v1/responses');
    expect(upstream?.headers.authorization).toBe('Bearer sk-openai-upstream-0123456789');
    expect(upstream?.body).toMatchObject({ model: 'gpt-5.4', prompt_cache_key: '5e66cef0-7372-496e-aa21-476a66401a2a' });

    const record = await generation('editor-text-1');
    expect(record).toMatchObject({ endpoint: 'editor.chat_completions', tokens_prompt: 8510, tokens_completion: 7, status: 'completed', session_id: '5e66cef0-7372-496e-aa21-476a66401a2a' });
    expect(record.total_cost).toBeCloseTo((8510 * 1250 + 7 * 10_000) / 1e9, 12);
    expect(record.compression_saved_tokens).toBeGreaterThan(30);
    const [row] = await queryLocalUsage(gateway.host.dataDir, "SELECT endpoint, compression_saved_tokens FROM usage_records WHERE id = 'editor-text-1'");
    expect(row).toEqual({ endpoint: 'editor.chat_completions', compression_saved_tokens: record.compression_saved_tokens });
  });

  it('bridges parallel calls and an ApplyPatch call (function calls, raw patch text), with the tool results of the turn before replayed as the API takes them', async () => {
    const parallel = await readChatStreamWithOpenAiSdk(splitFrames(await (await asCursor({ ...cursorResponsesBody('look in parallel'), model: 'gpt-5.4' }, 'editor-parallel')).text()));
    expect(parallel.toolCalls.map((call) => call.id)).toEqual(['call_Dke46usJNOchzqyvXSJQQMXP', 'call_jefCQLGSyAUpkBE78xklruzf']);
    expect(parallel.finishReason).toBe('tool_calls');

    const body = cursorResponsesBody('fix it', [...TOOL_TURN_ITEMS, { role: 'user', content: [{ type: 'input_text', text: '<user_query>\nnow patch the html\n</user_query>' }] }]);
    const patched = await readChatStreamWithOpenAiSdk(splitFrames(await (await asCursor({ ...body, model: 'gpt-5.4' }, 'editor-patch')).text()), { parseArguments: false });
    expect(patched.toolCalls).toEqual([{ id: 'call_g8yRNFvYwhYY5Eb3rGIAxf8l', name: 'setHtml', input: '<main><h1>Streaming custom tool input</h1><p>This must arrive progressively.</p></main>' }]);
    const replayed = openai.received.at(-1)?.body.input as Array<Record<string, unknown>>;
    expect(replayed).toContainEqual({ type: 'custom_tool_call', call_id: 'call_2', name: 'ApplyPatch', input: PATCH });
    expect(replayed).toContainEqual({ type: 'custom_tool_call_output', call_id: 'call_2', output: 'Done.' });
  });

  it('sends gpt-4o, which does not reason, none of the reasoning fields Cursor sends every model (OpenAI refuses them with a 400), and its temperature', async () => {
    const body = { ...cursorResponsesBody('ping', [{ type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'gAAAA' }]), model: 'gpt-4o', temperature: 0.2 };
    const response = await asCursor(body, 'editor-gpt-4o');
    expect(response.status).toBe(200);
    await response.text();
    const upstream = openai.received.at(-1)?.body ?? {};
    expect(upstream).toMatchObject({ model: 'gpt-4o', temperature: 0.2 });
    expect(upstream).not.toHaveProperty('reasoning');
    expect(upstream).not.toHaveProperty('include');
    expect(upstream.input).not.toContainEqual(expect.objectContaining({ type: 'reasoning' }));
  });

  it('answers a failure before any content with the status and words Cursor shows, and meters it', async () => {
    const quota = await asCursor({ ...cursorResponsesBody('over quota'), model: 'gpt-5.4' }, 'editor-quota');
    expect(quota.status).toBe(429);
    expect(await quota.json()).toMatchObject({ error: { code: 'upstream_insufficient_quota', message: expect.stringMatching(/no quota left.*You exceeded your current quota/) } });
    const azure = await asCursor({ ...cursorResponsesBody('an azure failure'), model: 'gpt-5.4' }, 'editor-azure-failure');
    expect(azure.status).toBe(502);
    expect(await azure.json()).toMatchObject({ error: { code: 'upstream_error', message: expect.stringMatching(/^The provider failed: An error occurred while processing your request/) } });
    expect(await generation('editor-quota')).toMatchObject({ status: 'failed', http_status: 429, error_code: 'upstream_insufficient_quota', tokens_completion: 0 });
  });

  it('serves GET /v1/editor/models like /v1/models, for the editor’s key check', async () => {
    const response = await fetch(`${gateway.url}/v1/editor/models`, { headers: { authorization: `Bearer ${key}` } });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ object: 'list', data: expect.arrayContaining([expect.objectContaining({ id: 'openai/gpt-5.4' })]) });
  });
});

describe('Cursor through /v1/editor against Anthropic', () => {
  it('continues a tool-use loop without thinking, since Cursor cannot send back the signed thinking Anthropic then requires', async () => {
    const first = await readChatStreamWithOpenAiSdk(splitFrames(await (await asCursor({ ...cursorResponsesBody('which version?'), model: 'claude-haiku-4-5' }, 'editor-claude-1')).text()));
    expect(anthropic.received.at(-1)?.body).toMatchObject({ thinking: { type: 'enabled' } });
    const [call] = first.toolCalls;
    expect(call?.id).toMatch(/^toolu_/);

    // The next request of the loop, as Cursor replays what it was shown: the think text, the call, its result.
    const replayed = [
      { role: 'assistant', content: [{ type: 'output_text', text: first.text }] },
      { type: 'function_call', call_id: call?.id, name: call?.name, arguments: JSON.stringify(call?.input) },
      { type: 'function_call_output', call_id: call?.id, output: '2.1.129' },
    ];
    const next = await asCursor({ ...cursorResponsesBody('which version?', replayed), model: 'claude-haiku-4-5' }, 'editor-claude-2');
    expect(next.status).toBe(200);
    await next.text();
    const upstream = anthropic.received.at(-1)?.body as { thinking?: unknown; messages: Array<{ role: string; content: Array<{ type: string }> }> };
    expect(upstream.thinking).toBeUndefined();
    expect(upstream.messages.at(-2)?.content.map((block) => block.type)).toEqual(['tool_use']);
  });
});

describe('the official OpenAI SDK pointed at /v1/editor', () => {
  it('parses the bridged stream of a chat-shaped body, with its tool calls', async () => {
    const client = new OpenAI({ apiKey: key, baseURL: `${gateway.url}/v1/editor`, maxRetries: 0 });
    const recorded = JSON.parse(readFixture('editor/cursor-chat-request-parallel-tool-call-turn.json')) as OpenAI.Chat.ChatCompletionCreateParamsStreaming;
    const stream = client.chat.completions.stream({
      ...recorded,
      model: 'gpt-5.4',
      messages: [...recorded.messages, { role: 'user', content: 'search in parallel' }],
      stream_options: { include_usage: true },
    });
    const completion = await stream.finalChatCompletion();
    expect(completion.choices[0]?.finish_reason).toBe('tool_calls');
    expect(completion.choices[0]?.message.tool_calls?.map((call) => call.id)).toEqual(['call_Dke46usJNOchzqyvXSJQQMXP', 'call_jefCQLGSyAUpkBE78xklruzf']);
    expect(completion.usage).toMatchObject({ prompt_tokens: 5914, completion_tokens: 92 });
    expect(openai.received.at(-1)?.body).not.toHaveProperty('temperature');
  });

  it('gets an error the SDK throws, with the setup hint, for a model the project does not allow', async () => {
    const client = new OpenAI({ apiKey: key, baseURL: `${gateway.url}/v1/editor`, maxRetries: 0 });
    await expect(client.chat.completions.create({ model: 'gpt-9', messages: [{ role: 'user', content: 'hi' }] })).rejects.toMatchObject({ status: 404, message: expect.stringMatching(/Settings → Models/) });
  });
});

describe('the official OpenAI SDK’s models.retrieve pointed at /v1/editor', () => {
  it('gets the entry the editor’s list shows, with or without the /v1 appended to the base URL', async () => {
    for (const baseURL of [`${gateway.url}/v1/editor`, `${gateway.url}/v1/editor/v1`]) {
      const client = new OpenAI({ apiKey: key, baseURL, maxRetries: 0 });
      const listed = (await client.models.list()).data.find((entry) => entry.id === 'openai/gpt-5.4');
      expect(listed).toBeDefined();
      expect(await client.models.retrieve('openai/gpt-5.4')).toEqual(listed);
    }
  });

  it('gets a 404 the SDK throws for a model the project does not allow', async () => {
    const client = new OpenAI({ apiKey: key, baseURL: `${gateway.url}/v1/editor`, maxRetries: 0 });
    await expect(client.models.retrieve('gpt-9')).rejects.toMatchObject({ status: 404, code: 'model_not_found', message: expect.stringContaining('GET /v1/editor/models') });
  });
});

describe('Cursor on the legacy /v1 base URL', () => {
  it('gets the editor profile when its User-Agent says so, and a plain OpenAI SDK client does not', async () => {
    const legacy = await asCursor({ ...cursorResponsesBody('ping'), model: 'gpt-5.4' }, 'editor-legacy', '/v1/chat/completions');
    expect((await readChatStreamWithOpenAiSdk(splitFrames(await legacy.text()))).text).toBe('pong');
    expect(openai.received.at(-1)?.path).toBe('/v1/responses');
    expect(await generation('editor-legacy')).toMatchObject({ endpoint: 'editor.chat_completions' });

    openai.answerWith((_request, response) => sendSse(response, sseEvents(readFixture('openai-chat/chat-stream-text-include-usage.sse')), 0));
    try {
      const stream = await gateway.openai(key).chat.completions.create({ model: 'gpt-5.4', messages: [{ role: 'user', content: 'Hello' }], stream: true });
      for await (const chunk of stream) expect(chunk.object).toBe('chat.completion.chunk');
      expect(openai.received.at(-1)?.path).toBe('/v1/chat/completions');
    } finally {
      openai.answerWith(answerFromRecordings);
    }
  });
});
