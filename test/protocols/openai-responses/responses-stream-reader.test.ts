import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CanonicalEvent } from '../../../shared/canonical/canonical-events.ts';
import { createResponsesStreamReader } from '../../../shared/protocols/openai-responses/responses-stream-reader.ts';
import { responsesFixtureBody, sseData, sseDataFromBytes, utf8 } from '../../canonical/support/sse-replay.ts';

const read = (data: unknown[]): CanonicalEvent[] => {
  const reader = createResponsesStreamReader();
  return data.flatMap((item) => reader.push(item));
};
const replay = (name: string) => read(sseData(responsesFixtureBody(name)));

/** The text, reasoning and tool calls canonical events spell out. */
function meaning(events: CanonicalEvent[]) {
  const calls = new Map<number, { id: string; name: string; input: string; custom: boolean; ended: boolean }>();
  let text = '';
  let reasoning = '';
  const encrypted: string[] = [];
  for (const event of events) {
    if (event.type === 'text-delta') text += event.text;
    if (event.type === 'reasoning-delta') {
      reasoning += event.text;
      if (event.encrypted) encrypted.push(event.encrypted);
    }
    if (event.type === 'tool-call-start') calls.set(event.index, { id: event.id, name: event.name, input: '', custom: event.custom === true, ended: false });
    if (event.type === 'tool-call-delta') {
      const call = calls.get(event.index);
      if (!call || call.ended) throw new Error(`delta outside call ${event.index}`);
      call.input += event.argumentsDelta;
    }
    if (event.type === 'tool-call-end') (calls.get(event.index) as { ended: boolean }).ended = true;
  }
  return { text, reasoning, encrypted, calls: [...calls.values()] };
}

describe('createResponsesStreamReader over recorded streams', () => {
  it('reads a text answer: the response id and model, the text, the usage and a stop', () => {
    const events = replay('responses-stream-text.sse');
    expect(events[0]).toEqual({ type: 'message-start', id: 'resp_00592e63e61b66660169fab1b9f8e481a2b321356198d7ac1b', model: 'gpt-5.5-2026-04-23' });
    expect(meaning(events).text).toBe('pong');
    expect(events.slice(-2)).toEqual([
      { type: 'usage', usage: { promptTokens: 11, completionTokens: 5, cachedTokens: 0, reasoningTokens: 0, estimated: false } },
      { type: 'finish', reason: 'stop', raw: 'completed' },
    ]);
  });

  it('reads a function call: its call id, name and argument deltas, ended before the tool-calls finish', () => {
    const events = replay('responses-stream-function-call.sse');
    const { calls } = meaning(events);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ name: 'multiply', custom: false, ended: true });
    expect(calls[0]?.id).toMatch(/^call_/);
    expect(JSON.parse(calls[0]?.input ?? '')).toEqual({ a: 1231, b: 2331 });
    expect(events.at(-1)).toEqual({ type: 'finish', reason: 'tool-calls', raw: 'completed' });
  });

  it('reads reasoning summary deltas as reasoning, the finished item’s encrypted content, then the function call', () => {
    const events = replay('responses-stream-reasoning-summary-function-call.chunks.txt');
    const read = meaning(events);
    expect(read.reasoning).toMatch(/^\*\*Calculating step-by-step using calculator\*\*\n\nI'll compute 12 plus 7/);
    expect(read.encrypted).toHaveLength(1);
    expect(read.encrypted[0]).toMatch(/^gAAAAABpPDIV/);
    expect(read.calls).toEqual([{ id: 'call_AB6AaRZ1FYZB2RwS6A5vbdqn', name: 'calculator', input: '{"a":12,"b":7,"op":"add"}', custom: false, ended: true }]);
  });

  it('reads a custom tool call: marked custom, its free-text input from the input deltas', () => {
    const { calls } = meaning(replay('openai-responses-custom-tool-call.chunks.jsonl'));
    expect(calls).toEqual([
      { id: 'call_g8yRNFvYwhYY5Eb3rGIAxf8l', name: 'setHtml', input: '<main><h1>Streaming custom tool input</h1><p>This must arrive progressively.</p></main>', custom: true, ended: true },
    ]);
  });

  it('numbers parallel function calls densely from 0, whatever their output indexes (Azure, after a reasoning item)', () => {
    const events = replay('azure-responses-parallel-function-calls.sse');
    const starts = events.filter((event) => event.type === 'tool-call-start');
    expect(starts.map((event) => event.index)).toEqual([0, 1]);
    for (const call of meaning(events).calls) expect(() => JSON.parse(call.input)).not.toThrow();
    expect(events.find((event) => event.type === 'usage')).toEqual({
      type: 'usage',
      usage: { promptTokens: 5914, completionTokens: 92, cachedTokens: 0, reasoningTokens: 0, estimated: false },
    });
  });

  it.each(['responses-stream-error-insufficient-quota.chunks.txt', 'openai-responses-error-failed.chunks.jsonl'])(
    'reads a stream that fails after HTTP 200 (%s) as one billing error, and nothing after it',
    (name) => {
      const events = replay(name);
      expect(events.filter((event) => event.type === 'error')).toEqual([{ type: 'error', errorType: 'billing', message: expect.stringMatching(/^You exceeded your current quota/) }]);
      expect(events.at(-1)?.type).toBe('error');
    },
  );

  it('reads a response.failed without an error event before it as the error', () => {
    const events = read([
      { type: 'response.created', response: { id: 'resp_1', model: 'gpt' } },
      { type: 'response.failed', response: { id: 'resp_1', status: 'failed', error: { code: 'server_error', message: 'The model failed.' } } },
    ]);
    expect(events.at(-1)).toEqual({ type: 'error', errorType: 'server', message: 'The model failed.' });
  });

  it('reads the usage a response.failed reports, after an error event too: billed as the provider counted it', () => {
    const usage = { input_tokens: 100, input_tokens_details: { cached_tokens: 0 }, output_tokens: 50, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 150 };
    const failed = { type: 'response.failed', response: { id: 'resp_1', status: 'failed', error: { code: 'server_error', message: 'The model failed.' }, usage } };
    const counted = { type: 'usage', usage: { promptTokens: 100, completionTokens: 50, cachedTokens: 0, reasoningTokens: 0, estimated: false } };
    expect(read([{ type: 'response.created', response: { id: 'resp_1', model: 'gpt' } }, failed]).slice(-2)).toEqual([{ type: 'error', errorType: 'server', message: 'The model failed.' }, counted]);
    const afterError = read([{ type: 'response.created', response: { id: 'resp_1', model: 'gpt' } }, { type: 'error', code: 'server_error', message: 'The model failed.' }, failed, failed]);
    expect(afterError.filter((event) => event.type === 'usage')).toEqual([counted]);
  });

  it('gives a call that ends without deltas its whole input from the done event', () => {
    const events = read([
      { type: 'response.created', response: { id: 'resp_1' } },
      { type: 'response.output_item.added', output_index: 0, item: { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'f', arguments: '' } },
      { type: 'response.function_call_arguments.done', output_index: 0, item_id: 'fc_1', arguments: '{"x":1}' },
      { type: 'response.output_item.done', output_index: 0, item: { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'f', arguments: '{"x":1}' } },
      { type: 'response.incomplete', response: { id: 'resp_1', status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } } },
    ]);
    expect(meaning(events).calls).toEqual([{ id: 'call_1', name: 'f', input: '{"x":1}', custom: false, ended: true }]);
    expect(events.at(-1)).toEqual({ type: 'finish', reason: 'length', raw: 'max_output_tokens' });
  });

  it('keeps every fragment of parallel calls whose deltas interleave, showing the calls one after another', () => {
    const events = read([
      { type: 'response.created', response: { id: 'resp_1' } },
      { type: 'response.output_item.added', output_index: 0, item: { type: 'function_call', id: 'fc_a', call_id: 'call_a', name: 'f', arguments: '' } },
      { type: 'response.output_item.added', output_index: 1, item: { type: 'custom_tool_call', id: 'ctc_b', call_id: 'call_b', name: 'ApplyPatch', input: '' } },
      { type: 'response.custom_tool_call_input.delta', output_index: 1, item_id: 'ctc_b', delta: '*** Begin' },
      { type: 'response.function_call_arguments.delta', output_index: 0, item_id: 'fc_a', delta: '{"x"' },
      { type: 'response.custom_tool_call_input.delta', output_index: 1, item_id: 'ctc_b', delta: ' Patch' },
      { type: 'response.function_call_arguments.delta', output_index: 0, item_id: 'fc_a', delta: ':1}' },
      { type: 'response.output_item.done', output_index: 1, item: { type: 'custom_tool_call', id: 'ctc_b', call_id: 'call_b', name: 'ApplyPatch', input: '*** Begin Patch' } },
      { type: 'response.output_item.done', output_index: 0, item: { type: 'function_call', id: 'fc_a', call_id: 'call_a', name: 'f', arguments: '{"x":1}' } },
      { type: 'response.completed', response: { id: 'resp_1', status: 'completed' } },
    ]);
    expect(meaning(events).calls).toEqual([
      { id: 'call_a', name: 'f', input: '{"x":1}', custom: false, ended: true },
      { id: 'call_b', name: 'ApplyPatch', input: '*** Begin Patch', custom: true, ended: true },
    ]);
    // One call at a time: the second starts only after the first ended.
    const kinds = events.filter((event) => event.type.startsWith('tool-call')).map((event) => `${event.type}:${(event as { index: number }).index}`);
    expect(kinds.indexOf('tool-call-start:1')).toBeGreaterThan(kinds.indexOf('tool-call-end:0'));
  });

  it('announces a call it sees only as a finished item, with its whole input', () => {
    const events = read([
      { type: 'response.created', response: { id: 'resp_1' } },
      { type: 'response.output_item.done', output_index: 0, item: { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'Grep', arguments: '{"pattern":"foo"}' } },
      { type: 'response.completed', response: { id: 'resp_1', status: 'completed' } },
    ]);
    expect(meaning(events).calls).toEqual([{ id: 'call_1', name: 'Grep', input: '{"pattern":"foo"}', custom: false, ended: true }]);
    expect(events.at(-1)).toEqual({ type: 'finish', reason: 'tool-calls', raw: 'completed' });
  });

  it('reads a response that streamed nothing but its end from the response’s output', () => {
    const events = read([
      {
        type: 'response.completed',
        response: {
          id: 'resp_1',
          status: 'completed',
          output: [
            { type: 'message', id: 'msg_1', content: [{ type: 'output_text', text: 'Done.' }] },
            { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'Shell', arguments: '{"command":"ls"}' },
          ],
        },
      },
    ]);
    expect(meaning(events)).toMatchObject({ text: 'Done.', calls: [{ id: 'call_1', name: 'Shell', input: '{"command":"ls"}', custom: false, ended: true }] });
    expect(events[0]).toEqual({ type: 'message-start', id: '', model: '' });
  });

  it('reads the same events wherever the bytes were cut (mid-line, mid-UTF-8)', () => {
    const names = ['responses-stream-text.sse', 'responses-stream-reasoning-summary-function-call.chunks.txt', 'azure-responses-parallel-function-calls.sse'];
    fc.assert(
      fc.property(fc.constantFrom(...names), fc.array(fc.nat(), { maxLength: 12 }), (name, cuts) => {
        const body = utf8(responsesFixtureBody(name));
        expect(read(sseDataFromBytes(body, cuts.map((cut) => cut % body.length)))).toEqual(replay(name));
      }),
      { numRuns: 60 },
    );
  });
});

describe('createResponsesStreamReader: a stream closed before its terminal event', () => {
  const recorded = sseData(responsesFixtureBody('responses-stream-text.sse'));
  const typeOf = (data: unknown) => (typeof data === 'string' && data.startsWith('{') ? (JSON.parse(data) as { type?: unknown }).type : undefined);
  const readAll = (data: unknown[]) => {
    const reader = createResponsesStreamReader();
    const events = data.flatMap((item) => reader.push(item));
    return { events, cutOff: reader.cutOff() };
  };

  it('was cut off when it ends before response.completed, response.incomplete or response.failed, however cleanly', () => {
    const beforeEnd = recorded.filter((data) => typeOf(data) !== 'response.completed');
    const { events, cutOff } = readAll(beforeEnd);
    expect(events.some((event) => event.type === 'finish')).toBe(false);
    expect(cutOff).toBe(true);
  });

  it('reached its end at a terminal event, and an in-band failure ended it in its own words', () => {
    expect(readAll(recorded).cutOff).toBe(false);
    expect(readAll([...recorded.slice(0, 2), { type: 'response.incomplete', response: { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } } }]).cutOff).toBe(false);
    expect(readAll([...recorded.slice(0, 2), { type: 'error', code: 'server_error', message: 'Boom' }]).cutOff).toBe(false);
  });
});

describe('createResponsesStreamReader: hosted web searches', () => {
  it('reads each web_search_call item as it is added as one web search (billed per search, even if the stream breaks off after it)', () => {
    const events = read([
      { type: 'response.created', response: { id: 'resp_1', model: 'gpt-5.5' } },
      { type: 'response.output_item.added', output_index: 0, item: { id: 'ws_1', type: 'web_search_call', status: 'in_progress' } },
      { type: 'response.web_search_call.searching', output_index: 0, item_id: 'ws_1' },
      { type: 'response.output_item.done', output_index: 0, item: { id: 'ws_1', type: 'web_search_call', status: 'completed', action: { type: 'search', query: 'news' } } },
      { type: 'response.output_item.added', output_index: 1, item: { id: 'ws_2', type: 'web_search_call', status: 'in_progress' } },
    ]);
    expect(events.filter((event) => event.type === 'web-search')).toHaveLength(2);
  });
});
