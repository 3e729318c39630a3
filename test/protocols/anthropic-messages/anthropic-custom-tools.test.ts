import { describe, expect, it } from 'vitest';
import type { CanonicalRequest } from '../../../shared/canonical/canonical-request.ts';
import { DroppedFields } from '../../../shared/canonical/dropped-fields.ts';
import { createAnthropicStreamReader } from '../../../shared/protocols/anthropic-messages/anthropic-stream-reader.ts';
import { readMessagesResponse } from '../../../shared/protocols/anthropic-messages/messages-response-reader.ts';
import { writeMessagesRequest } from '../../../shared/protocols/anthropic-messages/messages-request-writer.ts';
import { NO_EXTRA_FEATURES } from '../../support/upstream-features.ts';

/** A translated request declaring Codex's custom apply_patch tool beside a function tool. */
const request: CanonicalRequest = {
  system: [],
  messages: [
    { role: 'user', parts: [{ type: 'text', text: 'Add a line' }] },
    { role: 'assistant', parts: [{ type: 'tool-call', id: 'call_1', name: 'apply_patch', arguments: '*** Begin Patch\n*** End Patch', custom: true }] },
    { role: 'tool', parts: [{ type: 'tool-result', callId: 'call_1', content: [{ type: 'text', text: 'Done' }], custom: true }] },
  ],
  tools: [
    { name: 'apply_patch', description: 'Edit files', custom: { format: { type: 'text' } } },
    { name: 'exec_command', parameters: { type: 'object', properties: { cmd: { type: 'string' } } } },
  ],
  stream: true,
  dropped: new DroppedFields(),
};

describe('custom tools on an Anthropic upstream', () => {
  it('sends an earlier custom tool call with its text as the `input` property', () => {
    const body = writeMessagesRequest(request, 'claude-sonnet-4-5', NO_EXTRA_FEATURES) as { messages: Array<{ role: string; content: unknown[] }> };
    expect(body.messages[1]?.content).toEqual([{ type: 'tool_use', id: 'call_1', name: 'apply_patch', input: { input: '*** Begin Patch\n*** End Patch' } }]);
  });

  it('reads a streamed call of a custom tool back as a custom call carrying its text, and function tools as they were', () => {
    const reader = createAnthropicStreamReader(request);
    const events = [
      { type: 'message_start', message: { id: 'msg_1', model: 'claude', usage: { input_tokens: 5, output_tokens: 1 } } },
      { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 'toolu_1', name: 'apply_patch', input: {} } },
      { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{"input": "*** Begin' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: ' Patch\\n\\"quoted\\""}' } },
      { type: 'content_block_stop', index: 0 },
      { type: 'content_block_start', index: 1, content_block: { type: 'tool_use', id: 'toolu_2', name: 'exec_command', input: {} } },
      { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '{"cmd":"ls"}' } },
      { type: 'content_block_stop', index: 1 },
    ].flatMap((event) => reader.push(event));
    expect(events.slice(1)).toEqual([
      { type: 'tool-call-start', index: 0, id: 'toolu_1', name: 'apply_patch', custom: true },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '*** Begin Patch\n"quoted"' },
      { type: 'tool-call-end', index: 0 },
      { type: 'tool-call-start', index: 1, id: 'toolu_2', name: 'exec_command' },
      { type: 'tool-call-delta', index: 1, argumentsDelta: '{"cmd":"ls"}' },
      { type: 'tool-call-end', index: 1 },
    ]);
  });

  it('reads a custom call the output cap cut off as the text received so far, ended before the finish even when no block stop came', () => {
    const reader = createAnthropicStreamReader(request);
    const events = [
      { type: 'message_start', message: { id: 'msg_1', model: 'claude', usage: { input_tokens: 5, output_tokens: 1 } } },
      { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 'toolu_1', name: 'apply_patch', input: {} } },
      { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{"input": "*** Begin Patch\\n*** Add Fi' } },
      { type: 'message_delta', delta: { stop_reason: 'max_tokens' }, usage: { output_tokens: 16 } },
    ].flatMap((event) => reader.push(event));
    expect(events.slice(1).filter((event) => event.type !== 'usage')).toEqual([
      { type: 'tool-call-start', index: 0, id: 'toolu_1', name: 'apply_patch', custom: true },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '*** Begin Patch\n*** Add Fi' },
      { type: 'tool-call-end', index: 0 },
      { type: 'finish', reason: 'length', raw: 'max_tokens' },
    ]);
  });

  it('reads a complete answer calling a custom tool as a custom call carrying its text', () => {
    const answer = readMessagesResponse(
      { id: 'msg_1', model: 'claude', content: [{ type: 'tool_use', id: 'toolu_1', name: 'apply_patch', input: { input: 'patch text' } }], stop_reason: 'tool_use', usage: { input_tokens: 3, output_tokens: 4 } },
      request,
    );
    expect(answer.content).toEqual([{ type: 'tool-call', id: 'toolu_1', name: 'apply_patch', arguments: 'patch text', custom: true }]);
  });

  it('leaves a tool of the same name alone when no translated request declared it custom (a native answer)', () => {
    const answer = readMessagesResponse({ id: 'msg_1', content: [{ type: 'tool_use', id: 'toolu_1', name: 'apply_patch', input: { input: 'x' } }] });
    expect(answer.content).toEqual([{ type: 'tool-call', id: 'toolu_1', name: 'apply_patch', arguments: '{"input":"x"}' }]);
  });
});
