import { describe, expect, it } from 'vitest';
import type { CanonicalEvent } from '../../../shared/canonical/canonical-events.ts';
import { createChatStreamReader } from '../../../shared/protocols/openai-chat/chat-stream-reader.ts';

const chunk = (delta: Record<string, unknown>, finishReason: string | null = null) => ({ id: 'c', model: 'm', choices: [{ index: 0, delta, finish_reason: finishReason }] });
const read = (chunks: unknown[]): CanonicalEvent[] => {
  const reader = createChatStreamReader();
  return chunks.flatMap((data) => reader.push(data));
};
const toolEvents = (events: CanonicalEvent[]) => events.filter((event) => event.type.startsWith('tool-call'));

describe('createChatStreamReader', () => {
  it('starts with message-start and reads reasoning_content, reasoning, content and refusal deltas', () => {
    expect(read([chunk({ reasoning_content: 'a' }), chunk({ reasoning: 'b' }), chunk({ content: 'c' }), chunk({ refusal: 'd' })])).toEqual([
      { type: 'message-start', id: 'c', model: 'm' },
      { type: 'reasoning-delta', text: 'a' },
      { type: 'reasoning-delta', text: 'b' },
      { type: 'text-delta', text: 'c' },
      { type: 'text-delta', text: 'd' },
    ]);
  });

  it('keeps OpenRouter’s native_finish_reason (the word of the provider behind it) as the raw finish', () => {
    const ending = { id: 'c', model: 'm', choices: [{ index: 0, delta: {}, finish_reason: 'stop', native_finish_reason: 'end_turn' }] };
    expect(read([chunk({ content: 'Hi' }), ending]).at(-1)).toEqual({ type: 'finish', reason: 'stop', raw: 'end_turn' });
    expect(read([chunk({ content: 'Hi' }), chunk({}, 'stop')]).at(-1)).toEqual({ type: 'finish', reason: 'stop', raw: 'stop' });
  });

  it('treats a new id at a known index as a new tool call (servers that number every call 0)', () => {
    const call = (id: string, name: string, args: string) => chunk({ tool_calls: [{ index: 0, id, type: 'function', function: { name, arguments: args } }] });
    expect(toolEvents(read([call('call_a', 'f', '{}'), call('call_b', 'g', '{"x":1}'), chunk({}, 'tool_calls')]))).toEqual([
      { type: 'tool-call-start', index: 0, id: 'call_a', name: 'f' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{}' },
      { type: 'tool-call-end', index: 0 },
      { type: 'tool-call-start', index: 1, id: 'call_b', name: 'g' },
      { type: 'tool-call-delta', index: 1, argumentsDelta: '{"x":1}' },
      { type: 'tool-call-end', index: 1 },
    ]);
  });

  it('numbers tool calls densely whatever indexes the source uses, and reads calls without an index by position', () => {
    const events = read([
      chunk({ tool_calls: [{ index: 3, id: 'call_a', function: { name: 'f', arguments: '' } }] }),
      chunk({ tool_calls: [{ id: 'call_b', function: { name: 'g', arguments: '{}' } }, { id: 'call_c', function: { name: 'h', arguments: '{}' } }] }),
      chunk({}, 'tool_calls'),
    ]);
    expect(toolEvents(events).filter((event) => event.type === 'tool-call-start')).toEqual([
      { type: 'tool-call-start', index: 0, id: 'call_a', name: 'f' },
      { type: 'tool-call-start', index: 1, id: 'call_b', name: 'g' },
      { type: 'tool-call-start', index: 2, id: 'call_c', name: 'h' },
    ]);
  });

  it('holds argument fragments until the name arrives', () => {
    const events = read([
      chunk({ tool_calls: [{ index: 0, id: 'call_a', function: { arguments: '{"a"' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { name: 'f', arguments: ':1}' } }] }),
    ]);
    expect(toolEvents(events)).toEqual([
      { type: 'tool-call-start', index: 0, id: 'call_a', name: 'f' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{"a":1}' },
    ]);
  });

  it('keeps every fragment of parallel calls whose arguments interleave: the second is held until the first ends, then streams', () => {
    const named = (index: number, id: string, name: string) => chunk({ tool_calls: [{ index, id, type: 'function', function: { name, arguments: '' } }] });
    const args = (index: number, fragment: string) => chunk({ tool_calls: [{ index, function: { arguments: fragment } }] });
    const events = read([
      named(0, 'call_a', 'get_weather'),
      named(1, 'call_b', 'get_time'),
      args(0, '{"city":'),
      args(1, '{"zone":'),
      args(0, '"Paris"}'),
      args(1, '"CET"}'),
      chunk({}, 'tool_calls'),
    ]);
    expect(toolEvents(events)).toEqual([
      { type: 'tool-call-start', index: 0, id: 'call_a', name: 'get_weather' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{"city":' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '"Paris"}' },
      { type: 'tool-call-end', index: 0 },
      { type: 'tool-call-start', index: 1, id: 'call_b', name: 'get_time' },
      { type: 'tool-call-delta', index: 1, argumentsDelta: '{"zone":' },
      { type: 'tool-call-delta', index: 1, argumentsDelta: '"CET"}' },
      { type: 'tool-call-end', index: 1 },
    ]);
  });

  it('streams calls that come one after another as they come: a call whose arguments are whole ends when the next starts', () => {
    const reader = createChatStreamReader();
    const push = (delta: Record<string, unknown>, finishReason: string | null = null) => toolEvents(reader.push(chunk(delta, finishReason)));
    expect(push({ tool_calls: [{ index: 0, id: 'call_a', function: { name: 'f', arguments: '{"a":' } }] })).toEqual([
      { type: 'tool-call-start', index: 0, id: 'call_a', name: 'f' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{"a":' },
    ]);
    expect(push({ tool_calls: [{ index: 0, function: { arguments: '1}' } }] })).toEqual([{ type: 'tool-call-delta', index: 0, argumentsDelta: '1}' }]);
    expect(push({ tool_calls: [{ index: 1, id: 'call_b', function: { name: 'g', arguments: '' } }] })).toEqual([
      { type: 'tool-call-end', index: 0 },
      { type: 'tool-call-start', index: 1, id: 'call_b', name: 'g' },
    ]);
    expect(push({ tool_calls: [{ index: 1, function: { arguments: '{"b":' } }] })).toEqual([{ type: 'tool-call-delta', index: 1, argumentsDelta: '{"b":' }]);
    expect(push({ tool_calls: [{ index: 1, function: { arguments: '2}' } }] })).toEqual([{ type: 'tool-call-delta', index: 1, argumentsDelta: '2}' }]);
    expect(push({}, 'tool_calls')).toEqual([{ type: 'tool-call-end', index: 1 }]);
  });

  it('reads an error chunk as an error and nothing after it', () => {
    const reader = createChatStreamReader();
    expect(reader.push({ error: { message: 'Overloaded', type: 'server_overloaded' } })).toEqual([
      { type: 'error', errorType: 'overloaded', message: 'Overloaded' },
    ]);
    expect(reader.push(chunk({ content: 'late' }))).toEqual([]);
  });

  it('ignores [DONE] and text that is not JSON', () => {
    expect(read(['[DONE]', ': keep-alive'])).toEqual([]);
  });
});

describe('createChatStreamReader at the end of the stream', () => {
  const readAll = (chunks: unknown[]) => {
    const reader = createChatStreamReader();
    for (const data of chunks) reader.push(data);
    return reader;
  };

  it('says a stream that ended with neither a finish_reason nor [DONE] was cut off', () => {
    expect(readAll([chunk({ role: 'assistant', content: '' }), chunk({ content: 'The answer is' })]).cutOff()).toBe(true);
    expect(readAll([]).cutOff()).toBe(true);
  });

  it('takes [DONE] as the end of the answer, and so a finish chunk without [DONE] (some providers send none)', () => {
    expect(readAll([chunk({ content: 'Hi' }), '[DONE]']).cutOff()).toBe(false);
    expect(readAll([chunk({ content: 'Hi' }), chunk({}, 'stop')]).cutOff()).toBe(false);
  });

  it('does not call a stream that ended on an error chunk cut off: the error already told the client', () => {
    expect(readAll([chunk({ content: 'Hi' }), { error: { message: 'Overloaded', type: 'server_overloaded' } }]).cutOff()).toBe(false);
  });
});
