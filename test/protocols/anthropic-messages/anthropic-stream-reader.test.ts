import { describe, expect, it } from 'vitest';
import type { CanonicalEvent } from '../../../shared/canonical/canonical-events.ts';
import { createAnthropicStreamReader } from '../../../shared/protocols/anthropic-messages/anthropic-stream-reader.ts';
import { sseFixtureEvents } from './anthropic-fixtures.ts';

const read = (events: unknown[]): CanonicalEvent[] => {
  const reader = createAnthropicStreamReader();
  return events.flatMap((event) => reader.push(event));
};
const start = { type: 'message_start', message: { id: 'msg_1', model: 'claude', usage: { input_tokens: 5, cache_read_input_tokens: 2, output_tokens: 1 } } };

describe('createAnthropicStreamReader', () => {
  it('reads message_start usage as the whole prompt, cache reads included', () => {
    expect(read([start])).toEqual([
      { type: 'message-start', id: 'msg_1', model: 'claude', usage: { promptTokens: 7, completionTokens: 1, cachedTokens: 2, cacheWriteTokens: 0, reasoningTokens: 0, estimated: false } },
    ]);
  });

  it('gives a tool whose input came whole in content_block_start that input as its arguments', () => {
    const events = read([
      start,
      { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 'toolu_1', name: 'f', input: { a: 1 } } },
      { type: 'content_block_stop', index: 0 },
    ]);
    expect(events.slice(1)).toEqual([
      { type: 'tool-call-start', index: 0, id: 'toolu_1', name: 'f' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{"a":1}' },
      { type: 'tool-call-end', index: 0 },
    ]);
  });

  it('keeps the input_tokens of message_start when message_delta repeats only output_tokens', () => {
    const events = read([start, { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 9 } }]);
    expect(events.slice(1)).toEqual([
      { type: 'usage', usage: { promptTokens: 7, completionTokens: 9, cachedTokens: 2, cacheWriteTokens: 0, reasoningTokens: 0, estimated: false } },
      { type: 'finish', reason: 'stop', raw: 'end_turn' },
    ]);
  });

  it('skips event types and block types it does not know, and their deltas', () => {
    const events = read([
      start,
      { type: 'content_block_start', index: 0, content_block: { type: 'redacted_thinking', data: 'xyz' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{}' } },
      { type: 'content_block_stop', index: 0 },
      { type: 'brand_new_event', index: 0 },
    ]);
    expect(events).toHaveLength(1);
  });

  it('reads an error event as an error and nothing after it', () => {
    const reader = createAnthropicStreamReader();
    expect(reader.push('{"type":"error","error":{"type":"rate_limit_error","message":"Slow down"}}')).toEqual([
      { type: 'error', errorType: 'rate-limit', message: 'Slow down' },
    ]);
    expect(reader.push(start)).toEqual([]);
  });

  describe('cutOff', () => {
    const cutOffAfter = (events: unknown[]): boolean => {
      const reader = createAnthropicStreamReader();
      for (const event of events) reader.push(event);
      return reader.cutOff();
    };
    const text = [
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'The answer is' } },
    ];
    const stop = { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 9 } };

    it('says a stream that ended before its stop reason and message_stop was cut off', () => {
      expect(cutOffAfter([start, ...text])).toBe(true);
      expect(cutOffAfter([start, ...text, { type: 'content_block_stop', index: 0 }])).toBe(true);
      expect(cutOffAfter([])).toBe(true);
    });

    it('takes message_stop, or a stop reason without it, as the end', () => {
      expect(cutOffAfter([start, ...text, stop, { type: 'message_stop' }])).toBe(false);
      expect(cutOffAfter([start, ...text, stop])).toBe(false);
    });

    it('does not call a stream that ended on an error event cut off: the error already told the client', () => {
      expect(cutOffAfter([start, ...text, { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }])).toBe(false);
    });

    it('reads every recorded stream as complete', () => {
      for (const name of ['messages-stream-text.sse', 'messages-stream-thinking.sse', 'messages-stream-thinking-then-tool-use.sse', 'messages-stream-tool-use-input-json-delta.sse', 'messages-stream-parallel-tool-use-empty-input.sse']) {
        const reader = createAnthropicStreamReader();
        for (const event of sseFixtureEvents(name)) reader.push(event.slice(event.indexOf('data: ') + 'data: '.length));
        expect(reader.cutOff(), name).toBe(false);
      }
    });
  });
});
