import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { anthropicMessagesProtocol } from '../../shared/protocols/anthropic-messages/anthropic-messages-protocol.ts';
import { openAiChatProtocol } from '../../shared/protocols/openai-chat/openai-chat-protocol.ts';
import { openAiResponsesProtocol } from '../../shared/protocols/openai-responses/openai-responses-protocol.ts';
import { readFixture } from '../support/fixtures.ts';
import { accumulateAnthropicEvents, summarizeMessage } from './support/anthropic-stream-accumulator.ts';
import { readChatStreamWithOpenAiSdk } from './support/openai-sdk-stream.ts';
import { readResponsesStreamWithOpenAiSdk, summarizeResponse } from './support/openai-sdk-responses-stream.ts';
import { anthropicFixtureBody, chatFixtureBody, sseData } from './support/sse-replay.ts';
import { presentation, translateStream } from './support/translate.ts';

describe('recorded chat streams translated to Responses streams', () => {
  it.each(['chat-stream-text-include-usage.sse', 'chat-stream-tool-calls-include-usage.sse', 'chat-stream-azure-reasoning-include-usage.chunks.txt'])(
    '%s reads in the official SDK as the source text, calls and usage',
    async (fixture) => {
      const data = sseData(chatFixtureBody(fixture));
      const source = await readChatStreamWithOpenAiSdk(chatFixtureBody(fixture).split(/(?<=\n\n)/));
      const read = await readResponsesStreamWithOpenAiSdk(await translateStream(openAiChatProtocol, openAiResponsesProtocol, data));
      expect(read.text).toBe(source.text);
      expect(read.toolCalls).toEqual(source.toolCalls);
      expect(read.status).toBe('completed');
      expect(read.usage).toMatchObject({ input_tokens: source.usage?.prompt_tokens, output_tokens: source.usage?.completion_tokens });
      expect(read.usage?.output_tokens_details.reasoning_tokens).toBe(source.usage?.completion_tokens_details?.reasoning_tokens ?? 0);
    },
  );
});

describe('recorded Anthropic streams translated to Responses streams', () => {
  const recorded = [
    'messages-stream-text.sse',
    'messages-stream-thinking.sse',
    'messages-stream-thinking-then-tool-use.sse',
    'messages-stream-tool-use-input-json-delta.sse',
    'messages-stream-parallel-tool-use-empty-input.sse',
    'messages-stream-cache-usage-server-tool.chunks.txt',
  ];

  it.each(recorded)('%s reads in the official SDK as the source text, thinking, calls and usage', async (fixture) => {
    const data = sseData(anthropicFixtureBody(fixture));
    const source = summarizeMessage(accumulateAnthropicEvents(data.map((payload) => JSON.parse(payload) as { type: string })));
    const read = await readResponsesStreamWithOpenAiSdk(await translateStream(anthropicMessagesProtocol, openAiResponsesProtocol, data));
    expect(read.text).toBe(source.text);
    expect(read.reasoning).toBe(source.thinking);
    expect(read.toolCalls).toEqual(source.toolCalls);
    expect(read.usage).toMatchObject({ input_tokens: source.promptTokens, input_tokens_details: { cached_tokens: source.cachedTokens }, output_tokens: source.outputTokens });
  });

  it('carries each thinking block’s signature in its reasoning item when include asks for encrypted content, so the next turn can send it back signed', async () => {
    const data = sseData(anthropicFixtureBody('messages-stream-thinking-then-tool-use.sse'));
    const signature = (data.map((payload) => JSON.parse(payload) as { delta?: { signature?: string } }).find((event) => event.delta?.signature)?.delta?.signature) as string;
    const asked = { presentation: { clientBody: { include: ['reasoning.encrypted_content'] } } };
    const read = await readResponsesStreamWithOpenAiSdk(await translateStream(anthropicMessagesProtocol, openAiResponsesProtocol, data, asked));
    expect(read.encrypted).toEqual([`gateway-anthropic-signature:${signature}`]);
  });

  it('gives reasoning items no encrypted_content when include does not ask for it, as OpenAI does', async () => {
    const data = sseData(anthropicFixtureBody('messages-stream-thinking-then-tool-use.sse'));
    const read = await readResponsesStreamWithOpenAiSdk(await translateStream(anthropicMessagesProtocol, openAiResponsesProtocol, data, { presentation: { clientBody: { include: ['message.output_text.logprobs'] } } }));
    expect(read.reasoning).not.toBe('');
    expect(read.encrypted).toEqual([]);
  });

  it("ends a stream with an in-band overloaded error as an error event and response.failed (code server_is_overloaded, which Codex retries), which the SDK rejects", async () => {
    const data = [...sseData(anthropicFixtureBody('messages-stream-text.sse')).slice(0, 3), readFixture('anthropic/messages-stream-error-overloaded.data.json')];
    const frames = await translateStream(anthropicMessagesProtocol, openAiResponsesProtocol, data);
    expect(frames.slice(-2).map((frame) => frame.split('\n')[0])).toEqual(['event: error', 'event: response.failed']);
    expect(JSON.parse(frames.at(-1)?.split('data: ')[1] ?? '')).toMatchObject({ response: { status: 'failed', error: { code: 'server_is_overloaded', message: 'Overloaded' } } });
    await expect(readResponsesStreamWithOpenAiSdk(frames)).rejects.toThrow(/Overloaded/);
  });
});

describe('complete answers to and from Responses', () => {
  /** A response object as `responses.create` returns it through the official SDK. */
  async function createWithSdk(body: string) {
    const client = new OpenAI({ apiKey: 'sk', baseURL: 'http://gateway.test/v1', maxRetries: 0, fetch: async () => new Response(body, { headers: { 'content-type': 'application/json' } }) });
    return client.responses.create({ model: 'm', input: 'hi' });
  }

  it('writes a recorded Anthropic answer (thinking, text, tool use) as a response the SDK reads, with output_text', async () => {
    const source = JSON.parse(readFixture('anthropic/messages-nonstream-thinking-text-tool-use.json')) as { content: Array<{ type: string; text?: string; signature?: string }> };
    const write = (clientBody: Record<string, unknown>) => openAiResponsesProtocol.writeResponse(anthropicMessagesProtocol.readResponse(source), presentation({ responseId: 'gw1', model: 'claude', clientBody }));
    const response = await createWithSdk(write({ include: ['reasoning.encrypted_content'] }));
    expect(response.id).toBe('resp_gw1');
    expect(response.output.map((item) => item.type)).toEqual(['reasoning', 'message', 'function_call']);
    expect(response.output_text).toBe(source.content[1]?.text);
    expect(summarizeResponse(response).encrypted).toEqual([`gateway-anthropic-signature:${source.content[0]?.signature}`]);
    // Not asked for: no encrypted content, as OpenAI answers.
    expect(summarizeResponse(await createWithSdk(write({}))).encrypted).toEqual([]);
  });

  it('writes a recorded chat answer with tool calls as function_call items, with usage and injected cost', async () => {
    const body = openAiResponsesProtocol.writeResponse(
      openAiChatProtocol.readResponse(JSON.parse(readFixture('openai-chat/chat-nonstream-tool-calls.json'))),
      presentation({ injectCost: true, priceUsd: () => '0.000123' }),
    );
    expect(body).toContain('"cost":0.000123');
    const response = await createWithSdk(body);
    expect(response.output.map((item) => item.type)).toEqual(['function_call']);
    expect(response.status).toBe('completed');
  });

  it('marks the message the output cap cut off incomplete, as OpenAI does, in an incomplete response', async () => {
    const source = JSON.parse(readFixture('openai-chat/chat-nonstream-text-usage-details.json')) as { choices: Array<{ finish_reason: string }> };
    for (const choice of source.choices) choice.finish_reason = 'length';
    const response = await createWithSdk(openAiResponsesProtocol.writeResponse(openAiChatProtocol.readResponse(source), presentation()));
    expect(response).toMatchObject({ status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' }, output: [{ type: 'message', status: 'incomplete' }] });
  });

  it('writes a recorded Responses answer (reasoning summary, then the message) as a chat completion and as an Anthropic message', () => {
    const canonical = openAiResponsesProtocol.readResponse(JSON.parse(readFixture('openai-responses/responses-nonstream-reasoning-summary.json')));
    const completion = JSON.parse(openAiChatProtocol.writeResponse(canonical, presentation())) as { choices: Array<{ message: { content: string; reasoning_content: string } }>; usage: Record<string, unknown> };
    expect(completion.choices[0]?.message.reasoning_content).toBeTruthy();
    expect(completion.usage).toMatchObject({ prompt_tokens: 34, completion_tokens: 226, completion_tokens_details: { reasoning_tokens: 59 } });
    const message = JSON.parse(anthropicMessagesProtocol.writeResponse(canonical, presentation())) as { content: Array<{ type: string }>; stop_reason: string };
    expect(message.content.map((block) => block.type)).toEqual(['thinking', 'text']);
    expect(message.stop_reason).toBe('end_turn');
  });

  it('writes a recorded Responses function call as a chat tool call and as Anthropic tool_use', () => {
    const canonical = openAiResponsesProtocol.readResponse(JSON.parse(readFixture('openai-responses/responses-nonstream-function-call.json')));
    const completion = JSON.parse(openAiChatProtocol.writeResponse(canonical, presentation())) as { choices: Array<{ message: { tool_calls: unknown[] }; finish_reason: string }> };
    expect(completion.choices[0]).toMatchObject({ finish_reason: 'tool_calls', message: { tool_calls: [{ id: 'call_fUL4HcLUJuOTMPvhZR4DQKJy', type: 'function', function: { name: 'get_current_weather', arguments: '{"location":"Peak District"}' } }] } });
    const message = JSON.parse(anthropicMessagesProtocol.writeResponse(canonical, presentation())) as { content: unknown[]; stop_reason: string };
    expect(message).toMatchObject({ stop_reason: 'tool_use', content: [{ type: 'tool_use', id: 'call_fUL4HcLUJuOTMPvhZR4DQKJy', name: 'get_current_weather', input: { location: 'Peak District' } }] });
  });
});
