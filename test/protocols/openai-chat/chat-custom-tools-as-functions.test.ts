import { beforeAll, describe, expect, it } from 'vitest';
import type { CanonicalEvent } from '../../../shared/canonical/canonical-events.ts';
import { takesCustomTools } from '../../../shared/core/provider-catalog.ts';
import { chooseBridge } from '../../../shared/protocols/bridge.ts';
import { loadWireProtocols, REACHABLE_PROTOCOLS } from '../../../shared/protocols/registry.ts';
import { chatBodyUsesCustomTools } from '../../../shared/protocols/openai-chat/chat-request.ts';
import { readChatRequest } from '../../../shared/protocols/openai-chat/chat-request-reader.ts';
import { writeChatRequest } from '../../../shared/protocols/openai-chat/chat-request-writer.ts';
import { readChatResponse } from '../../../shared/protocols/openai-chat/chat-response-reader.ts';
import { createChatStreamReader } from '../../../shared/protocols/openai-chat/chat-stream-reader.ts';
import { openAiChatProtocol } from '../../../shared/protocols/openai-chat/openai-chat-protocol.ts';
import { NO_EXTRA_FEATURES, OPENAI_FEATURES } from '../../support/upstream-features.ts';

// chooseBridge takes the protocols the pipeline loads first (registry.ts).
beforeAll(() => loadWireProtocols(REACHABLE_PROTOCOLS));

const PATCH = '*** Begin Patch\n*** Add File: a.txt\n+"quoted"\n*** End Patch';
const WRAPPED = JSON.stringify({ input: PATCH });

/** A chat body with a custom tool, an earlier call of it and its output, as an OpenAI SDK sends it. */
const body = {
  model: 'm',
  messages: [
    { role: 'user', content: 'Edit' },
    { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'custom', custom: { name: 'apply_patch', input: PATCH } }] },
    { role: 'tool', tool_call_id: 'call_1', content: 'Done' },
  ],
  tools: [
    { type: 'custom', custom: { name: 'apply_patch', description: 'Edit files.', format: { type: 'grammar', syntax: 'lark', definition: 'start: "*** Begin Patch"' } } },
    { type: 'function', function: { name: 'read_file', parameters: { type: 'object', properties: { path: { type: 'string' } } } } },
  ],
  tool_choice: { type: 'custom', custom: { name: 'apply_patch' } },
};

describe('custom tools for a chat provider without them', () => {
  it('writes a custom tool as a function taking one string, `input` (the grammar in its description), its earlier call JSON-wrapped, and a named choice as a function', () => {
    const written = writeChatRequest(readChatRequest(body), 'llama', NO_EXTRA_FEATURES) as { tools: unknown[]; messages: Array<Record<string, unknown>>; tool_choice: unknown };
    expect(written.tools[0]).toEqual({
      type: 'function',
      function: {
        name: 'apply_patch',
        description: 'Edit files.',
        parameters: {
          type: 'object',
          properties: { input: { type: 'string', description: expect.stringContaining('lark grammar:\nstart: "*** Begin Patch"') } },
          required: ['input'],
          additionalProperties: false,
        },
      },
    });
    expect(written.tools[1]).toMatchObject({ type: 'function', function: { name: 'read_file' } });
    expect(written.messages[1]).toEqual({ role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'apply_patch', arguments: WRAPPED } }] });
    expect(written.messages[2]).toEqual({ role: 'tool', tool_call_id: 'call_1', content: 'Done' });
    expect(written.tool_choice).toEqual({ type: 'function', function: { name: 'apply_patch' } });
  });

  it('keeps them custom for a provider that takes them', () => {
    const written = writeChatRequest(readChatRequest(body), 'gpt-5', OPENAI_FEATURES) as { tools: Array<{ type: string }> };
    expect(written.tools.map((tool) => tool.type)).toEqual(['custom', 'function']);
  });

  it('reads a streamed function call of a custom tool back as a custom call with the raw text, in one fragment at its end', () => {
    const reader = createChatStreamReader(readChatRequest(body));
    const delta = (toolCall: Record<string, unknown>) => ({ id: 'c', choices: [{ index: 0, delta: { tool_calls: [toolCall] } }] });
    const events: CanonicalEvent[] = [
      delta({ index: 0, id: 'call_2', type: 'function', function: { name: 'apply_patch', arguments: WRAPPED.slice(0, 5) } }),
      delta({ index: 0, function: { arguments: WRAPPED.slice(5, 20) } }),
      delta({ index: 0, function: { arguments: WRAPPED.slice(20) } }),
      delta({ index: 1, id: 'call_3', type: 'function', function: { name: 'read_file', arguments: '{"path":"a"}' } }),
      { id: 'c', choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] },
    ].flatMap((chunk) => reader.push(chunk));
    expect(events.filter((event) => event.type.startsWith('tool-call'))).toEqual([
      { type: 'tool-call-start', index: 0, id: 'call_2', name: 'apply_patch', custom: true },
      { type: 'tool-call-delta', index: 0, argumentsDelta: PATCH },
      { type: 'tool-call-end', index: 0 },
      { type: 'tool-call-start', index: 1, id: 'call_3', name: 'read_file' },
      { type: 'tool-call-delta', index: 1, argumentsDelta: '{"path":"a"}' },
      { type: 'tool-call-end', index: 1 },
    ]);
  });

  it('reads a function call of a custom tool interleaved with another call: nothing lost, the custom one unwrapped', () => {
    const reader = createChatStreamReader(readChatRequest(body));
    const delta = (toolCall: Record<string, unknown>) => ({ id: 'c', choices: [{ index: 0, delta: { tool_calls: [toolCall] } }] });
    const events: CanonicalEvent[] = [
      delta({ index: 0, id: 'call_2', type: 'function', function: { name: 'apply_patch', arguments: '' } }),
      delta({ index: 1, id: 'call_3', type: 'function', function: { name: 'read_file', arguments: '' } }),
      delta({ index: 0, function: { arguments: WRAPPED.slice(0, 20) } }),
      delta({ index: 1, function: { arguments: '{"path":' } }),
      delta({ index: 0, function: { arguments: WRAPPED.slice(20) } }),
      delta({ index: 1, function: { arguments: '"a"}' } }),
      { id: 'c', choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] },
    ].flatMap((chunk) => reader.push(chunk));
    expect(events.filter((event) => event.type.startsWith('tool-call'))).toEqual([
      { type: 'tool-call-start', index: 0, id: 'call_2', name: 'apply_patch', custom: true },
      { type: 'tool-call-delta', index: 0, argumentsDelta: PATCH },
      { type: 'tool-call-end', index: 0 },
      { type: 'tool-call-start', index: 1, id: 'call_3', name: 'read_file' },
      { type: 'tool-call-delta', index: 1, argumentsDelta: '{"path":' },
      { type: 'tool-call-delta', index: 1, argumentsDelta: '"a"}' },
      { type: 'tool-call-end', index: 1 },
    ]);
  });

  it('reads a complete answer’s function call of a custom tool as a custom call with the raw text', () => {
    const answer = { id: 'c', choices: [{ index: 0, message: { role: 'assistant', content: null, tool_calls: [{ id: 'call_2', type: 'function', function: { name: 'apply_patch', arguments: WRAPPED } }] }, finish_reason: 'tool_calls' }] };
    expect(readChatResponse(answer, readChatRequest(body)).content).toEqual([{ type: 'tool-call', id: 'call_2', name: 'apply_patch', arguments: PATCH, custom: true }]);
    expect(readChatResponse(answer).content).toEqual([{ type: 'tool-call', id: 'call_2', name: 'apply_patch', arguments: WRAPPED }]);
  });
});

describe('the chat bridge and custom tools', () => {
  const canonical = () => readChatRequest(body);
  const plain = { model: 'm', messages: [{ role: 'user', content: 'Hi' }], tools: [body.tools[1]] };

  it('translates a chat body that uses custom tools for a provider without them, and passes it through to one with them', () => {
    expect(chooseBridge(openAiChatProtocol, { protocols: ['openai-chat'], features: NO_EXTRA_FEATURES }, body, canonical).native).toBe(false);
    expect(chooseBridge(openAiChatProtocol, { protocols: ['openai-chat'], features: OPENAI_FEATURES }, body, canonical).native).toBe(true);
    expect(chooseBridge(openAiChatProtocol, { protocols: ['openai-chat'], features: NO_EXTRA_FEATURES }, plain, canonical).native).toBe(true);
  });

  it('sees custom tools in a tool or in an earlier call, either spelling', () => {
    expect(chatBodyUsesCustomTools(plain)).toBe(false);
    expect(chatBodyUsesCustomTools({ ...plain, tools: [{ custom: { name: 'x' } }] })).toBe(true);
    expect(chatBodyUsesCustomTools({ messages: [{ role: 'assistant', tool_calls: [{ id: 'c', type: 'custom', custom: { name: 'x', input: '' } }] }] })).toBe(true);
  });

  it('is told by the catalogue that only OpenAI takes custom tools', () => {
    expect(['openai', 'openrouter', 'groq', 'mistral', 'deepseek', 'xai', 'together', 'fireworks', 'gemini', 'mock'].filter(takesCustomTools)).toEqual(['openai']);
  });
});
