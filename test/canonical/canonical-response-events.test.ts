import { describe, expect, it } from 'vitest';
import { canonicalEventsOf } from '../../shared/canonical/canonical-response-events.ts';

describe('canonicalEventsOf', () => {
  it('gives each part of a complete answer whole, tool calls numbered from 0, the finish then the usage last', () => {
    const usage = { promptTokens: 10, completionTokens: 7, cachedTokens: 0, reasoningTokens: 2, estimated: false };
    const events = canonicalEventsOf({
      id: 'msg_1',
      model: 'm',
      content: [
        { type: 'reasoning', text: 'thinking', signature: 'sig' },
        { type: 'text', text: 'Let me look.' },
        { type: 'tool-call', id: 'call_a', name: 'lookup', arguments: '{"q":"x"}' },
        { type: 'tool-call', id: 'call_b', name: 'patch', arguments: '*** Begin Patch', custom: true },
      ],
      finish: 'tool-calls',
      rawFinish: 'tool_use',
      usage,
    });
    expect(events).toEqual([
      { type: 'message-start', id: 'msg_1', model: 'm' },
      { type: 'reasoning-delta', text: 'thinking', signature: 'sig' },
      { type: 'text-delta', text: 'Let me look.' },
      { type: 'tool-call-start', index: 0, id: 'call_a', name: 'lookup' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{"q":"x"}' },
      { type: 'tool-call-end', index: 0 },
      { type: 'tool-call-start', index: 1, id: 'call_b', name: 'patch', custom: true },
      { type: 'tool-call-delta', index: 1, argumentsDelta: '*** Begin Patch' },
      { type: 'tool-call-end', index: 1 },
      { type: 'finish', reason: 'tool-calls', raw: 'tool_use' },
      { type: 'usage', usage },
    ]);
  });
});
