import type { ServerResponse } from 'node:http';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readChatStreamWithOpenAiSdk } from '../canonical/support/openai-sdk-stream.ts';
import { splitFrames } from '../canonical/support/translate.ts';
import { sendJson, sendSse, startFakeOpenAiUpstream, type FakeUpstream, type ReceivedRequest } from '../support/fake-openai-upstream.ts';
import { startTestGateway, type TestGateway } from '../support/test-gateway.ts';
import { cursorResponsesBody, PATCH, TOOL_TURN_ITEMS } from '../protocols/editor-chat/cursor-bodies.ts';

/*
 * OpenAI's custom (free-text) tools on chat-completions providers that do not take them (Groq here): the
 * provider gets a function tool taking one string, `input`, and the client gets its custom call back with
 * the raw text. OpenAI itself still gets `type: "custom"`.
 */

let gateway: TestGateway;
let groq: FakeUpstream;
let openai: FakeUpstream;
let key: string;
let mockKey: string;

/** A chat answer calling `name` with `{"input": PATCH}`, as a provider calls a JSON tool: streamed in pieces, or whole. */
function callWithWrappedPatch(name: string) {
  const wrapped = JSON.stringify({ input: PATCH });
  return (request: ReceivedRequest, response: ServerResponse) => {
    const envelope = { id: 'chatcmpl-groq-1', object: 'chat.completion.chunk', created: 1, model: 'llama-3.3-70b' };
    if (request.body.stream !== true) {
      return sendJson(response, 200, {
        ...envelope,
        object: 'chat.completion',
        choices: [{ index: 0, message: { role: 'assistant', content: null, tool_calls: [{ id: 'call_groq_1', type: 'function', function: { name, arguments: wrapped } }] }, finish_reason: 'tool_calls' }],
        usage: { prompt_tokens: 40, completion_tokens: 20, total_tokens: 60 },
      });
    }
    const chunk = (payload: Record<string, unknown>) => `data: ${JSON.stringify({ ...envelope, ...payload })}\n\n`;
    const delta = (value: Record<string, unknown>, finish: string | null = null) => chunk({ choices: [{ index: 0, delta: value, finish_reason: finish }] });
    const pieces = [wrapped.slice(0, 9), wrapped.slice(9, 30), wrapped.slice(30)];
    return sendSse(response, [
      delta({ role: 'assistant', content: null }),
      delta({ tool_calls: [{ index: 0, id: 'call_groq_1', type: 'function', function: { name, arguments: '' } }] }),
      ...pieces.map((piece) => delta({ tool_calls: [{ index: 0, function: { arguments: piece } }] })),
      delta({}, 'tool_calls'),
      chunk({ choices: [], usage: { prompt_tokens: 40, completion_tokens: 20, total_tokens: 60 } }),
      'data: [DONE]\n\n',
    ], 0);
  };
}

beforeAll(async () => {
  groq = await startFakeOpenAiUpstream();
  openai = await startFakeOpenAiUpstream();
  gateway = await startTestGateway();
  const projectId = 'custom-tools';
  await gateway.admin({ command: 'project.create', projectId });
  await gateway.admin({ command: 'provider.set', projectId, provider: 'groq', apiKey: 'gsk-upstream-0123456789', baseUrl: groq.baseUrl });
  await gateway.admin({ command: 'provider.set', projectId, provider: 'openai', apiKey: 'sk-openai-upstream-0123456789', baseUrl: openai.baseUrl });
  await gateway.admin({ command: 'model.allow', projectId, slug: 'groq/llama-3.3-70b' });
  await gateway.admin({ command: 'model.allow', projectId, slug: 'openai/gpt-5-chat', upstreamApi: 'chat' });
  key = (await gateway.admin<{ key: string }>({ command: 'key.create', projectId })).key;
  await gateway.admin({ command: 'project.create', projectId: 'offline' });
  await gateway.admin({ command: 'provider.set', projectId: 'offline', provider: 'mock' });
  await gateway.admin({ command: 'model.allow', projectId: 'offline', slug: 'mock/echo' });
  mockKey = (await gateway.admin<{ key: string }>({ command: 'key.create', projectId: 'offline' })).key;
});

afterAll(async () => {
  await gateway?.close();
  await groq?.close();
  await openai?.close();
});

const applyPatch = { type: 'custom' as const, name: 'apply_patch', description: 'Edit files.', format: { type: 'grammar' as const, syntax: 'lark' as const, definition: 'start: "*** Begin Patch" /(.|\\n)*/' } };

type ChatTool = { type: string; function?: { name: string; parameters?: Record<string, unknown> }; custom?: unknown };

function lastBody(upstream: FakeUpstream) {
  const request = upstream.received.at(-1);
  expect(request?.path).toBe('/v1/chat/completions');
  return request?.body as { tools: ChatTool[]; messages: Array<Record<string, unknown>>; tool_choice?: unknown };
}

/** Checks that a chat body offers `name` as a function taking one string, `input`, and nothing as `custom`. */
function expectCustomToolAsFunction(body: { tools: ChatTool[] }, name: string) {
  expect(body.tools.map((tool) => tool.type)).not.toContain('custom');
  const tool = body.tools.find((candidate) => candidate.function?.name === name);
  expect(tool?.function?.parameters).toMatchObject({ type: 'object', properties: { input: { type: 'string' } }, required: ['input'] });
}

describe('Cursor through /v1/editor on Groq (chat completions without custom tools)', () => {
  it('offers ApplyPatch as a function tool, replays its earlier call JSON-wrapped, and gives Cursor a function call with the raw patch', async () => {
    groq.answerWith(callWithWrappedPatch('ApplyPatch'));
    const body = cursorResponsesBody('fix it', [...TOOL_TURN_ITEMS, { role: 'user', content: [{ type: 'input_text', text: '<user_query>\nnow patch it again\n</user_query>' }] }]);
    const response = await fetch(`${gateway.url}/v1/editor/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'user-agent': 'Cursor/3.14.27' },
      body: JSON.stringify({ ...body, model: 'llama-3.3-70b' }),
    });
    expect(response.status).toBe(200);
    const answer = await readChatStreamWithOpenAiSdk(splitFrames(await response.text()), { parseArguments: false });
    expect(answer.toolCalls).toEqual([{ id: 'call_groq_1', name: 'ApplyPatch', input: PATCH }]);
    expect(answer.finishReason).toBe('tool_calls');

    const sent = lastBody(groq);
    expectCustomToolAsFunction(sent, 'ApplyPatch');
    const calls = sent.messages.flatMap((message) => (message.tool_calls as Array<Record<string, unknown>> | undefined) ?? []);
    expect(calls).toContainEqual({ id: 'call_2', type: 'function', function: { name: 'ApplyPatch', arguments: JSON.stringify({ input: PATCH }) } });
    expect(sent.messages).toContainEqual({ role: 'tool', tool_call_id: 'call_2', content: 'Done.' });
  });
});

describe('a Codex-style Responses request on Groq', () => {
  it('offers apply_patch as a function tool and answers a custom_tool_call with the raw input, streamed and not', async () => {
    groq.answerWith(callWithWrappedPatch('apply_patch'));
    const client = gateway.openai(key);
    const history: OpenAI.Responses.ResponseInputItem[] = [
      { role: 'user', content: 'Patch the file' },
      { type: 'custom_tool_call', call_id: 'call_prev', name: 'apply_patch', input: PATCH },
      { type: 'custom_tool_call_output', call_id: 'call_prev', output: 'Done.' },
      { role: 'user', content: 'And again' },
    ];

    const whole = await client.responses.create({ model: 'llama-3.3-70b', input: history, tools: [applyPatch], store: false });
    expect(whole.output).toContainEqual(expect.objectContaining({ type: 'custom_tool_call', call_id: 'call_groq_1', name: 'apply_patch', input: PATCH }));
    const sent = lastBody(groq);
    expectCustomToolAsFunction(sent, 'apply_patch');
    const calls = sent.messages.flatMap((message) => (message.tool_calls as Array<Record<string, unknown>> | undefined) ?? []);
    expect(calls).toEqual([{ id: 'call_prev', type: 'function', function: { name: 'apply_patch', arguments: JSON.stringify({ input: PATCH }) } }]);
    expect(sent.messages).toContainEqual({ role: 'tool', tool_call_id: 'call_prev', content: 'Done.' });

    const stream = client.responses.stream({ model: 'llama-3.3-70b', input: history, tools: [applyPatch], store: false });
    const final = await stream.finalResponse();
    expect(final.output).toContainEqual(expect.objectContaining({ type: 'custom_tool_call', call_id: 'call_groq_1', name: 'apply_patch', input: PATCH }));
    expectCustomToolAsFunction(lastBody(groq), 'apply_patch');
  });
});

describe('a chat client with a custom tool', () => {
  const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [
    { role: 'user', content: 'Patch the file' },
    { role: 'assistant', content: null, tool_calls: [{ id: 'call_prev', type: 'custom', custom: { name: 'apply_patch', input: PATCH } }] },
    { role: 'tool', tool_call_id: 'call_prev', content: 'Done.' },
  ];
  const tools: OpenAI.Chat.ChatCompletionTool[] = [{ type: 'custom', custom: { name: 'apply_patch', description: 'Edit files.' } }];

  it('on Groq: the provider gets a function tool, the client its custom call with the raw input', async () => {
    groq.answerWith(callWithWrappedPatch('apply_patch'));
    const completion = await gateway.openai(key).chat.completions.create({ model: 'llama-3.3-70b', messages, tools });
    expect(completion.choices[0]?.message.tool_calls).toEqual([{ id: 'call_groq_1', type: 'custom', custom: { name: 'apply_patch', input: PATCH } }]);
    const sent = lastBody(groq);
    expectCustomToolAsFunction(sent, 'apply_patch');
    expect(sent.messages[1]).toMatchObject({ tool_calls: [{ id: 'call_prev', type: 'function', function: { name: 'apply_patch', arguments: JSON.stringify({ input: PATCH }) } }] });

    const stream = gateway.openai(key).chat.completions.stream({ model: 'llama-3.3-70b', messages, tools });
    const streamed = await stream.finalChatCompletion();
    expect(streamed.choices[0]?.message.tool_calls).toEqual([{ id: 'call_groq_1', type: 'custom', custom: { name: 'apply_patch', input: PATCH } }]);
  });

  it('on OpenAI: the body goes as sent, custom tool and custom call included', async () => {
    openai.answerWith((_request, response) => sendJson(response, 200, { id: 'chatcmpl-1', object: 'chat.completion', created: 1, model: 'gpt-5', choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } }));
    await gateway.openai(key).chat.completions.create({ model: 'gpt-5-chat', messages, tools });
    const sent = lastBody(openai);
    expect(sent.tools).toEqual(tools);
    expect(sent.messages[1]).toEqual(messages[1]);
  });

  it('on OpenAI through translation (a Responses request to its chat API): custom tools stay custom', async () => {
    openai.answerWith((_request, response) => sendJson(response, 200, { id: 'chatcmpl-2', object: 'chat.completion', created: 1, model: 'gpt-5', choices: [{ index: 0, message: { role: 'assistant', content: null, tool_calls: [{ id: 'call_oa', type: 'custom', custom: { name: 'apply_patch', input: PATCH } }] }, finish_reason: 'tool_calls' }] }));
    const response = await gateway.openai(key).responses.create({ model: 'gpt-5-chat', input: 'Patch it', tools: [applyPatch], store: false });
    expect(response.output).toContainEqual(expect.objectContaining({ type: 'custom_tool_call', call_id: 'call_oa', input: PATCH }));
    expect(lastBody(openai).tools).toEqual([{ type: 'custom', custom: { name: 'apply_patch', description: 'Edit files.', format: applyPatch.format } }]);
  });
});

describe('the offline mock provider, which takes no custom tools either', () => {
  it('calls the custom tool the user names: Cursor gets an ApplyPatch function call with raw text, Codex a custom_tool_call', async () => {
    const response = await fetch(`${gateway.url}/v1/editor/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${mockKey}`, 'content-type': 'application/json', 'user-agent': 'Cursor/3.14.27' },
      body: JSON.stringify({ ...cursorResponsesBody('call ApplyPatch'), model: 'mock/echo' }),
    });
    const cursor = await readChatStreamWithOpenAiSdk(splitFrames(await response.text()), { parseArguments: false });
    expect(cursor.toolCalls).toEqual([{ id: expect.stringMatching(/^call_mock_/), name: 'ApplyPatch', input: 'example' }]);

    const codex = await gateway.openai(mockKey).responses.create({ model: 'mock/echo', input: `call apply_patch ${JSON.stringify({ input: PATCH })}`, tools: [applyPatch], store: false });
    expect(codex.output).toContainEqual(expect.objectContaining({ type: 'custom_tool_call', name: 'apply_patch', input: PATCH }));
  });
});
