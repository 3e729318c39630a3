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

/** Every event of a translated Responses stream that ends normally after `events`, as parsed JSON. */
async function endAfter(events: CanonicalEvent[]) {
  const writer = createResponsesStreamWriter(presentation({ responseId: 'gw1' }));
  const text = (await writer.push(NO_UPSTREAM_EVENT, events)) + (await writer.end());
  return text
    .split(/(?<=\n\n)/)
    .filter((frame) => frame.trim() !== '')
    .map((frame) => JSON.parse(frame.slice(frame.indexOf('data: ') + 'data: '.length)) as { type: string; item?: { status: string }; response?: { status: string; output: unknown[] } });
}

describe('createResponsesStreamWriter when the output cap cuts a call off', () => {
  const cutOffCall: CanonicalEvent[] = [
    { type: 'message-start', id: 'up', model: 'claude' },
    { type: 'tool-call-start', index: 0, id: 'toolu_1', name: 'apply_patch', custom: true },
    { type: 'tool-call-delta', index: 0, argumentsDelta: '*** Begin Patch\n*** Add Fi' },
    // Upstreams end the call before they say the cap ended the answer.
    { type: 'tool-call-end', index: 0 },
    { type: 'finish', reason: 'length' },
  ];

  it('marks the call incomplete in its output_item.done and in response.incomplete', async () => {
    const events = await endAfter(cutOffCall);
    expect(events.find((event) => event.type === 'response.output_item.done')?.item).toMatchObject({ type: 'custom_tool_call', status: 'incomplete', input: '*** Begin Patch\n*** Add Fi' });
    expect(events.at(-1)).toMatchObject({ type: 'response.incomplete', response: { status: 'incomplete', output: [{ type: 'custom_tool_call', status: 'incomplete' }] } });
  });

  it('marks only the last call incomplete: a call the next one followed was whole', async () => {
    const events = await endAfter([
      { type: 'message-start', id: 'up', model: 'claude' },
      { type: 'tool-call-start', index: 0, id: 'toolu_0', name: 'exec_command' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{"cmd":"ls"}' },
      { type: 'tool-call-end', index: 0 },
      ...cutOffCall.slice(1).map((event) => ('index' in event ? { ...event, index: 1 } : event)),
    ]);
    expect(events.at(-1)?.response?.output).toMatchObject([{ type: 'function_call', status: 'completed' }, { type: 'custom_tool_call', status: 'incomplete' }]);
  });

  it('keeps a call completed when the answer ends for another reason', async () => {
    const events = await endAfter([...cutOffCall.slice(0, -1), { type: 'finish', reason: 'tool-calls' }]);
    expect(events.at(-1)).toMatchObject({ type: 'response.completed', response: { output: [{ type: 'custom_tool_call', status: 'completed' }] } });
  });
});
