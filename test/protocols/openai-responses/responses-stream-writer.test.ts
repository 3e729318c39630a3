import { describe, expect, it } from 'vitest';
import type { CanonicalEvent } from '../../../shared/canonical/canonical-events.ts';
import { GatewayError } from '../../../shared/core/errors.ts';
import { createResponsesStreamWriter } from '../../../shared/protocols/openai-responses/responses-stream-writer.ts';
import { presentation } from '../../canonical/support/translate.ts';

const NO_UPSTREAM_EVENT = { raw: '', data: undefined, payload: undefined };
const brokeOff = new GatewayError('upstream', 'Provider "vllm" broke off the stream.', { code: 'upstream_stream_interrupted' });

/** The events of a translated Responses stream that fails after `events`, as parsed JSON. */
async function failAfter(events: CanonicalEvent[]) {
  const writer = createResponsesStreamWriter(presentation({ responseId: 'gw1' }));
  const text = (await writer.push(NO_UPSTREAM_EVENT, events)) + writer.fail(brokeOff);
  return text
    .split(/(?<=\n\n)/)
    .filter((frame) => frame.trim() !== '')
    .map((frame) => JSON.parse(frame.slice(frame.indexOf('data: ') + 'data: '.length)) as { type: string; sequence_number: number; response?: { status: string; output: unknown[] } });
}

describe('createResponsesStreamWriter when the stream fails mid-way', () => {
  it('sends response.failed with every item already sent, the message it cut off incomplete with the text so far', async () => {
    const events = await failAfter([
      { type: 'message-start', id: 'up', model: 'qwen3-8b' },
      { type: 'reasoning-delta', text: 'Multiplying.' },
      { type: 'text-delta', text: 'The' },
      { type: 'text-delta', text: ' result' },
    ]);
    const failed = events.at(-1);
    expect(failed?.type).toBe('response.failed');
    expect(failed?.response).toMatchObject({
      status: 'failed',
      output: [
        { id: 'rs_gw1_0', type: 'reasoning', summary: [{ type: 'summary_text', text: 'Multiplying.' }] },
        { id: 'msg_gw1_1', type: 'message', status: 'incomplete', content: [{ type: 'output_text', text: 'The result' }] },
      ],
    });
    expect(events.map((event) => event.sequence_number)).toEqual(events.map((_event, index) => index));
  });

  it('carries a tool call it cut off as incomplete, with the arguments sent so far', async () => {
    const events = await failAfter([
      { type: 'message-start', id: 'up', model: 'qwen3-8b' },
      { type: 'tool-call-start', index: 0, id: 'call_1', name: 'multiply' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{"a":12' },
    ]);
    expect(events.at(-1)?.response?.output).toEqual([{ id: 'fc_gw1_0', type: 'function_call', status: 'incomplete', arguments: '{"a":12', call_id: 'call_1', name: 'multiply' }]);
  });

  it('carries finished items as they were done, and none more, when the failure comes between items', async () => {
    const events = await failAfter([
      { type: 'message-start', id: 'up', model: 'qwen3-8b' },
      { type: 'tool-call-start', index: 0, id: 'call_1', name: 'multiply' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{"a":12}' },
      { type: 'tool-call-end', index: 0 },
    ]);
    expect(events.at(-1)?.response?.output).toEqual([{ id: 'fc_gw1_0', type: 'function_call', status: 'completed', arguments: '{"a":12}', call_id: 'call_1', name: 'multiply' }]);
  });
});
