import { describe, expect, it } from 'vitest';
import { createChatChunkWriter } from '../../../shared/protocols/openai-chat/chat-chunk-writer.ts';
import { readChatRequest } from '../../../shared/protocols/openai-chat/chat-request-reader.ts';
import { writeChatRequest } from '../../../shared/protocols/openai-chat/chat-request-writer.ts';
import { createChatStreamReader } from '../../../shared/protocols/openai-chat/chat-stream-reader.ts';
import { readChatStreamWithOpenAiSdk } from '../../canonical/support/openai-sdk-stream.ts';
import { OPENAI_FEATURES } from '../../support/upstream-features.ts';

describe('custom tool calls in chat completions', () => {
  it('streams a custom tool call the way the official SDK accumulates it (type custom, input fragments)', async () => {
    const writer = createChatChunkWriter({ model: 'gpt-5', includeUsage: false });
    const frames = [
      ...writer.push({ type: 'message-start', id: 'chatcmpl-1', model: 'gpt-5' }),
      ...writer.push({ type: 'tool-call-start', index: 0, id: 'call_1', name: 'apply_patch', custom: true }),
      ...writer.push({ type: 'tool-call-delta', index: 0, argumentsDelta: '*** Begin Patch\n' }),
      ...writer.push({ type: 'tool-call-delta', index: 0, argumentsDelta: '*** End Patch' }),
      ...writer.push({ type: 'tool-call-end', index: 0 }),
      ...writer.push({ type: 'finish', reason: 'tool-calls' }),
      ...writer.end(),
    ];
    const { completion, toolCalls } = await readChatStreamWithOpenAiSdk(frames);
    expect(toolCalls).toEqual([{ id: 'call_1', name: 'apply_patch', input: '*** Begin Patch\n*** End Patch', custom: true }]);
    expect(completion.choices[0]?.finish_reason).toBe('tool_calls');
  });

  it('reads streamed custom tool call fragments back as one custom call', () => {
    const reader = createChatStreamReader();
    const events = [
      { id: 'c', choices: [{ index: 0, delta: { tool_calls: [{ index: 0, id: 'call_1', type: 'custom', custom: { name: 'apply_patch', input: '' } }] } }] },
      { id: 'c', choices: [{ index: 0, delta: { tool_calls: [{ index: 0, custom: { input: 'patch' } }] } }] },
      { id: 'c', choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] },
    ].flatMap((chunk) => reader.push(chunk));
    expect(events.slice(1, 4)).toEqual([
      { type: 'tool-call-start', index: 0, id: 'call_1', name: 'apply_patch', custom: true },
      { type: 'tool-call-delta', index: 0, argumentsDelta: 'patch' },
      { type: 'tool-call-end', index: 0 },
    ]);
  });

  it('keeps an earlier custom tool call of the conversation a custom call, and names a custom tool choice as custom', () => {
    const canonical = readChatRequest({
      model: 'm',
      messages: [
        { role: 'user', content: 'Edit' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'custom', custom: { name: 'apply_patch', input: 'patch' } }] },
        { role: 'tool', tool_call_id: 'call_1', content: 'Done' },
      ],
      tools: [{ type: 'custom', custom: { name: 'apply_patch' } }],
      tool_choice: { type: 'custom', custom: { name: 'apply_patch' } },
    });
    const body = writeChatRequest(canonical, 'gpt-5', OPENAI_FEATURES) as { messages: Array<Record<string, unknown>>; tool_choice: unknown };
    expect(body.messages[1]).toEqual({ role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'custom', custom: { name: 'apply_patch', input: 'patch' } }] });
    expect(body.tool_choice).toEqual({ type: 'custom', custom: { name: 'apply_patch' } });
  });
});
