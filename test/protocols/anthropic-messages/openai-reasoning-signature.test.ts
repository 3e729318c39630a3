import { describe, expect, it } from 'vitest';
import { readMessagesRequest } from '../../../shared/protocols/anthropic-messages/messages-request-reader.ts';
import { createMessagesEventWriter } from '../../../shared/protocols/anthropic-messages/messages-event-writer.ts';
import { buildUpstreamMessagesBody, parseMessagesRequest } from '../../../shared/protocols/anthropic-messages/messages-request.ts';
import { writeMessagesResponse } from '../../../shared/protocols/anthropic-messages/messages-response-writer.ts';
import { thinkingSignatureOf } from '../../../shared/protocols/anthropic-messages/openai-reasoning-signature.ts';
import { nativeBedrockMessagesBody } from '../../../shared/protocols/bedrock-anthropic-messages/bedrock-messages-body.ts';
import { writeResponsesRequest } from '../../../shared/protocols/openai-responses/responses-request-writer.ts';
import { writeChatRequest } from '../../../shared/protocols/openai-chat/chat-request-writer.ts';

const NO_EXTRA_FEATURES = { customTools: false, maxCompletionTokens: false, reasoningObject: false };
const carried = thinkingSignatureOf({ encrypted: 'gAAAA-encrypted-reasoning' });

/** Claude Code's second turn of a tool loop on an OpenAI reasoning model: its thinking block sent back as it got it. */
const secondTurn = {
  model: 'o3',
  max_tokens: 1000,
  thinking: { type: 'enabled', budget_tokens: 2000 },
  tools: [{ name: 'Read', input_schema: { type: 'object' } }],
  messages: [
    { role: 'user', content: 'Read a.txt' },
    {
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: '', signature: carried },
        { type: 'tool_use', id: 'call_1', name: 'Read', input: { path: 'a.txt' } },
      ],
    },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_1', content: 'hello' }] },
  ],
};

describe("OpenAI's encrypted reasoning carried by a Messages client", () => {
  it("is given to the client as the thinking block's signature", () => {
    const written = JSON.parse(
      writeMessagesResponse({ id: 'resp_1', model: 'o3', content: [{ type: 'reasoning', text: '', encrypted: 'gAAAA-encrypted-reasoning' }, { type: 'text', text: 'Hi' }], finish: 'stop' }, {
        responseId: 'r1',
        model: 'o3',
        injectCost: false,
        priceUsd: () => '0',
        finalUsage: async () => ({ promptTokens: 0, completionTokens: 0, cachedTokens: 0, reasoningTokens: 0, estimated: false }),
      } as never),
    ) as { content: Array<Record<string, unknown>> };
    expect(written.content[0]).toEqual({ type: 'thinking', thinking: '', signature: carried });
  });

  it('goes back to OpenAI as a reasoning item before the calls it led to, with the encrypted content asked for again', () => {
    const body = writeResponsesRequest(readMessagesRequest(secondTurn), 'o3', NO_EXTRA_FEATURES);
    expect(body.input).toEqual([
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Read a.txt' }] },
      { type: 'reasoning', summary: [], encrypted_content: 'gAAAA-encrypted-reasoning' },
      { type: 'function_call', call_id: 'call_1', name: 'Read', arguments: '{"path":"a.txt"}' },
      { type: 'function_call_output', call_id: 'call_1', output: 'hello' },
    ]);
    expect(body.include).toEqual(['reasoning.encrypted_content']);
  });

  it("is left out of the conversation a Claude model reads (a client that changed models), which would refuse the signature", () => {
    const upstream = JSON.parse(buildUpstreamMessagesBody(parseMessagesRequest(JSON.stringify({ ...secondTurn, model: 'claude-sonnet-4-5' })), 'claude-sonnet-4-5')) as typeof secondTurn;
    expect(upstream.messages[1]?.content).toEqual([{ type: 'tool_use', id: 'call_1', name: 'Read', input: { path: 'a.txt' } }]);
    // Anthropic's own thinking stays as sent.
    const own = { ...secondTurn, messages: [secondTurn.messages[0], { role: 'assistant', content: [{ type: 'thinking', thinking: 'hm', signature: 'EqQBCkYIBx' }, { type: 'text', text: 'x' }] }, { role: 'user', content: 'more' }] };
    expect(JSON.parse(buildUpstreamMessagesBody(parseMessagesRequest(JSON.stringify(own)), 'claude-sonnet-4-5')).messages).toEqual(own.messages);
  });

  it('sends a tool loop left without its opening thinking no thinking (Anthropic would refuse the turn), and keeps it outside such a loop', () => {
    const upstream = JSON.parse(buildUpstreamMessagesBody(parseMessagesRequest(JSON.stringify({ ...secondTurn, model: 'claude-sonnet-4-5' })), 'claude-sonnet-4-5')) as Record<string, unknown>;
    expect(upstream).not.toHaveProperty('thinking');
    // A new question after the loop: the open turn is the next one, which starts as Claude likes.
    const askedAgain = { ...secondTurn, messages: [...secondTurn.messages, { role: 'assistant', content: [{ type: 'text', text: 'done' }] }, { role: 'user', content: 'and b.txt?' }] };
    expect(JSON.parse(buildUpstreamMessagesBody(parseMessagesRequest(JSON.stringify(askedAgain)), 'claude-sonnet-4-5'))).toMatchObject({ thinking: { type: 'enabled' } });
    // Claude on Bedrock alike.
    expect(JSON.parse(nativeBedrockMessagesBody({ ...secondTurn, model: 'claude-sonnet-4-5' }, 'anthropic.claude-sonnet-4-5', {}))).not.toHaveProperty('thinking');
  });

  it('names a failed tool result’s is_error as dropped for OpenAI’s protocols, which have no such flag: the output goes as it is', () => {
    const failed = { ...secondTurn, messages: [...secondTurn.messages.slice(0, 2), { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_1', content: 'ENOENT', is_error: true }] }] };
    for (const write of [writeResponsesRequest, writeChatRequest]) {
      const canonical = readMessagesRequest(failed);
      expect(JSON.stringify(write(canonical, 'o3', NO_EXTRA_FEATURES))).toContain('ENOENT');
      expect(canonical.dropped.list()).toContain('tool_result.is_error');
    }
    const succeeded = readMessagesRequest(secondTurn);
    writeChatRequest(succeeded, 'o3', NO_EXTRA_FEATURES);
    expect(succeeded.dropped.list()).not.toContain('tool_result.is_error');
  });

  it('asks for no encrypted reasoning from a model that does not reason, which refuses the include, and gives it none back', () => {
    const body = writeResponsesRequest(readMessagesRequest({ model: 'gpt-4.1', max_tokens: 100, messages: [{ role: 'user', content: 'Hi' }] }), 'gpt-4.1', NO_EXTRA_FEATURES);
    expect(body).not.toHaveProperty('include');
    // A conversation that changed to such a model keeps its calls, without the reasoning items.
    const changed = writeResponsesRequest(readMessagesRequest({ ...secondTurn, model: 'gpt-4.1' }), 'gpt-4.1', NO_EXTRA_FEATURES);
    expect(changed).not.toHaveProperty('include');
    expect((changed.input as Array<{ type: string }>).map((item) => item.type)).toEqual(['message', 'function_call', 'function_call_output']);
  });

  it('is left out of the body Claude on Bedrock reads too', () => {
    const body = JSON.parse(nativeBedrockMessagesBody({ ...secondTurn, model: 'anthropic.claude-sonnet-4-5' }, 'anthropic.claude-sonnet-4-5', {})) as typeof secondTurn;
    expect(body.messages[1]?.content).toEqual([{ type: 'tool_use', id: 'call_1', name: 'Read', input: { path: 'a.txt' } }]);
  });
});

describe('a streamed answer of OpenAI reasoning to a Messages client', () => {
  it('carries the encrypted reasoning as the thinking block\'s signature_delta, in a block of its own before the call', () => {
    const writer = createMessagesEventWriter({ model: 'o3', messageId: 'msg_1' });
    const frames = [
      ...writer.push({ type: 'message-start', id: 'resp_1', model: 'o3' }),
      ...writer.push({ type: 'reasoning-delta', text: '', encrypted: 'gAAAA-encrypted-reasoning' }),
      ...writer.push({ type: 'tool-call-start', index: 0, id: 'call_1', name: 'Read' }),
      ...writer.push({ type: 'tool-call-end', index: 0 }),
      ...writer.push({ type: 'finish', reason: 'tool-calls' }),
      ...writer.end(),
    ].join('');
    const events = frames.split('\n\n').filter(Boolean).map((frame) => JSON.parse(frame.split('\n')[1]?.slice('data: '.length) ?? '{}') as Record<string, unknown>);
    expect(events).toContainEqual({ type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } });
    expect(events).toContainEqual({ type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: carried } });
    expect(events).toContainEqual(expect.objectContaining({ type: 'content_block_start', index: 1, content_block: expect.objectContaining({ type: 'tool_use', id: 'call_1' }) }));
  });
});
