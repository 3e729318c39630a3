import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CanonicalEvent } from '../../../shared/canonical/canonical-events.ts';
import { GatewayError } from '../../../shared/core/errors.ts';
import { editorChatProtocol } from '../../../shared/protocols/editor-chat/editor-chat-protocol.ts';
import { editorStreamErrorFrame } from '../../../shared/protocols/editor-chat/editor-errors.ts';
import { createEditorStreamWriter } from '../../../shared/protocols/editor-chat/editor-stream-writer.ts';
import { createResponsesStreamReader } from '../../../shared/protocols/openai-responses/responses-stream-reader.ts';
import { openAiResponsesProtocol } from '../../../shared/protocols/openai-responses/openai-responses-protocol.ts';
import { expectWellFormedChatStream } from '../../canonical/support/chat-stream-shape.ts';
import { readChatStreamWithOpenAiSdk } from '../../canonical/support/openai-sdk-stream.ts';
import { responsesFixtureBody, sseData } from '../../canonical/support/sse-replay.ts';
import { presentation, splitFrames, translateStream } from '../../canonical/support/translate.ts';
import { readFixture } from '../../support/fixtures.ts';

type UpstreamEvent = Record<string, unknown> & { type: string };

/** A recorded Responses stream's events, from test/fixtures (openai-responses/… or editor/…). */
function recordedEvents(name: string): UpstreamEvent[] {
  const body = name.startsWith('editor/') ? readFixture(name) : responsesFixtureBody(name);
  return sseData(body).map((data) => JSON.parse(data) as UpstreamEvent);
}

/** The editor's chunks for a recorded stream, as the gateway writes them (created 1, the client's usage choice). */
const bridge = (events: unknown[], showUsage = true) =>
  translateStream(openAiResponsesProtocol, editorChatProtocol, events, { presentation: { showUsage, model: 'm', created: 1 } });

/** The chunks OpenAI's chat streams consist of, for an expected stream written out in full. */
function chunksOf(id: string, model: string, created = 1) {
  const frame = (payload: unknown) => `data: ${JSON.stringify(payload)}\n\n`;
  const envelope = { id, object: 'chat.completion.chunk', created, model };
  return {
    role: frame({ ...envelope, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, logprobs: null, finish_reason: null }] }),
    delta: (delta: Record<string, unknown>) => frame({ ...envelope, choices: [{ index: 0, delta, logprobs: null, finish_reason: null }] }),
    finish: (reason: string) => frame({ ...envelope, choices: [{ index: 0, delta: {}, logprobs: null, finish_reason: reason }] }),
    usage: (prompt: number, completion: number, cached = 0, reasoning = 0) =>
      frame({
        ...envelope,
        choices: [],
        usage: {
          prompt_tokens: prompt,
          completion_tokens: completion,
          total_tokens: prompt + completion,
          prompt_tokens_details: { cached_tokens: cached },
          completion_tokens_details: { reasoning_tokens: reasoning },
        },
      }),
    done: 'data: [DONE]\n\n',
  };
}

/** A call's streamed fragments, as the upstream sent them. */
const deltasOf = (events: UpstreamEvent[], itemId: string) => events.filter((event) => event.item_id === itemId && String(event.type).endsWith('.delta')).map((event) => String(event.delta));

describe('the editor bridge over recorded Responses streams: exact chat chunk streams', () => {
  it('a text turn: the role chunk, the text, stop, the usage chunk the client asked for, [DONE]', async () => {
    const events = recordedEvents('azure-responses-text-pong.sse');
    const chunk = chunksOf('resp_68ca61ea133c8190a25851b67c2dc1fa000638fabbdbe241', 'gpt-5');
    expect(await bridge(events)).toEqual([chunk.role, chunk.delta({ content: 'pong' }), chunk.finish('stop'), chunk.usage(8510, 7), chunk.done]);
  });

  it('a text turn without `stream_options.include_usage`: no usage chunk', async () => {
    const chunk = chunksOf('resp_68ca61ea133c8190a25851b67c2dc1fa000638fabbdbe241', 'gpt-5');
    expect(await bridge(recordedEvents('azure-responses-text-pong.sse'), false)).toEqual([chunk.role, chunk.delta({ content: 'pong' }), chunk.finish('stop'), chunk.done]);
  });

  it('parallel calls: function calls numbered 0 and 1 (output indexes 1 and 2), the call ids as ids, every argument fragment in order, tool_calls', async () => {
    const events = recordedEvents('azure-responses-parallel-function-calls.sse');
    const chunk = chunksOf('resp_68ca6051813c819597791adeffc66df804bf0c654f76558d', 'gpt-5');
    const first = deltasOf(events, 'fc_68ca605470708195afea2d6ccba1484304bf0c654f76558d');
    const second = deltasOf(events, 'fc_68ca60550658819593f76eaf700afc8f04bf0c654f76558d');
    expect(first.length).toBeGreaterThan(20);
    expect(await bridge(events)).toEqual([
      chunk.role,
      chunk.delta({ tool_calls: [{ index: 0, id: 'call_Dke46usJNOchzqyvXSJQQMXP', type: 'function', function: { name: 'REDACTED', arguments: '' } }] }),
      ...first.map((fragment) => chunk.delta({ tool_calls: [{ index: 0, function: { arguments: fragment } }] })),
      chunk.delta({ tool_calls: [{ index: 1, id: 'call_jefCQLGSyAUpkBE78xklruzf', type: 'function', function: { name: 'REDACTED', arguments: '' } }] }),
      ...second.map((fragment) => chunk.delta({ tool_calls: [{ index: 1, function: { arguments: fragment } }] })),
      chunk.finish('tool_calls'),
      chunk.usage(5914, 92),
      chunk.done,
    ]);
  });

  it('a custom tool call (ApplyPatch-like): a `function` call whose arguments are the raw free text, fragment by fragment', async () => {
    const events = recordedEvents('openai-responses-custom-tool-call.chunks.jsonl');
    const chunk = chunksOf('resp_0bbd8ccbe12a7c9b006a61f8e3791c8192a04e4812f06910ac', 'gpt-5.2-codex');
    const fragments = deltasOf(events, 'ctc_0bbd8ccbe12a7c9b006a61f8e3d35c8192a57844f5fbd26f2d');
    expect(await bridge(events)).toEqual([
      chunk.role,
      chunk.delta({ tool_calls: [{ index: 0, id: 'call_g8yRNFvYwhYY5Eb3rGIAxf8l', type: 'function', function: { name: 'setHtml', arguments: '' } }] }),
      ...fragments.map((fragment) => chunk.delta({ tool_calls: [{ index: 0, function: { arguments: fragment } }] })),
      chunk.finish('tool_calls'),
      chunk.usage(93, 51),
      chunk.done,
    ]);
    expect(fragments.join('')).toBe('<main><h1>Streaming custom tool input</h1><p>This must arrive progressively.</p></main>');
  });

  it('reasoning, then a call: the summary inside <think> tags as text, closed before the call', async () => {
    const events = recordedEvents('responses-stream-reasoning-summary-function-call.chunks.txt');
    const frames = await bridge(events);
    const created = events[0]?.response as { id: string; model: string };
    const chunk = chunksOf(created.id, created.model);
    const summary = events.filter((event) => event.type === 'response.reasoning_summary_text.delta').map((event) => String(event.delta));
    const call = events.find((event) => event.type === 'response.output_item.added' && (event.item as { type: string }).type === 'function_call')?.item as { id: string; call_id: string; name: string };
    const completed = (events.at(-1)?.response as { usage: { input_tokens: number; output_tokens: number; output_tokens_details: { reasoning_tokens: number } } }).usage;
    expect(frames).toEqual([
      chunk.role,
      chunk.delta({ content: '<think>\n' }),
      ...summary.map((text) => chunk.delta({ content: text })),
      chunk.delta({ content: '\n</think>\n\n' }),
      chunk.delta({ tool_calls: [{ index: 0, id: call.call_id, type: 'function', function: { name: call.name, arguments: '' } }] }),
      ...deltasOf(events, call.id).map((fragment) => chunk.delta({ tool_calls: [{ index: 0, function: { arguments: fragment } }] })),
      chunk.finish('tool_calls'),
      chunk.usage(completed.input_tokens, completed.output_tokens, 0, completed.output_tokens_details.reasoning_tokens),
      chunk.done,
    ]);
  });

  it('parallel calls whose deltas interleave: each call whole, in the order they were added, nothing dropped', async () => {
    const events = recordedEvents('azure-responses-parallel-function-calls.sse');
    // The same events with the second call's item added before the first call's fragments (as CLIProxyAPI's tests stream them).
    const secondAdded = events.findIndex((event) => event.type === 'response.output_item.added' && event.output_index === 2);
    const firstDelta = events.findIndex((event) => event.type === 'response.function_call_arguments.delta');
    const interleaved = [...events.slice(0, firstDelta), events[secondAdded] as UpstreamEvent, ...events.slice(firstDelta).filter((_, position) => position !== secondAdded - firstDelta)];
    const read = await readChatStreamWithOpenAiSdk(await bridge(interleaved));
    const straight = await readChatStreamWithOpenAiSdk(await bridge(events));
    expect(read.toolCalls).toHaveLength(2);
    expect(read.toolCalls).toEqual(straight.toolCalls);
    expect(read.toolCalls.map((call) => call.id)).toEqual(['call_Dke46usJNOchzqyvXSJQQMXP', 'call_jefCQLGSyAUpkBE78xklruzf']);
  });
});

describe('the editor bridge when the upstream fails', () => {
  it.each([
    ['openai-responses-error-failed.chunks.jsonl', 429, 'upstream_insufficient_quota', /no quota left.*You exceeded your current quota/],
    ['editor/azure-responses-error-server-error.sse', 502, 'upstream_error', /^The provider failed: An error occurred while processing your request/],
  ])('%s (failed after HTTP 200, before any content): nothing is written, the failure is held with status %i', async (fixture, status, code, message) => {
    const writer = createEditorStreamWriter(presentation({ showUsage: true }));
    const reader = createResponsesStreamReader();
    let text = '';
    for (const event of recordedEvents(fixture)) text += await writer.push({ raw: '', data: undefined, payload: undefined }, reader.push(event));
    text += await writer.end();
    expect(text).toBe('');
    expect(writer.heldFailure()).toMatchObject({ status, code, message: expect.stringMatching(message) });
  });

  it('fails after the first content: the answer so far, the failure as text of its own, stop, usage, [DONE]', async () => {
    // The recorded text turn up to its delta, then the recorded in-band failure (a splice of two real streams).
    const text = recordedEvents('azure-responses-text-pong.sse');
    const upToDelta = text.slice(0, text.findIndex((event) => event.type === 'response.output_text.delta') + 1);
    const failure = recordedEvents('openai-responses-error-failed.chunks.jsonl').filter((event) => event.type === 'error' || event.type === 'response.failed');
    const frames = await bridge([...upToDelta, ...failure]);
    const chunk = chunksOf('resp_68ca61ea133c8190a25851b67c2dc1fa000638fabbdbe241', 'gpt-5');
    const { message } = (failure[0] as unknown as { error: { message: string } }).error;
    expect(frames).toEqual([
      chunk.role,
      chunk.delta({ content: 'pong' }),
      chunk.delta({ content: `\n\n[The gateway could not finish this answer: ${message}]` }),
      chunk.finish('stop'),
      // No usage was reported: the metered estimate is shown.
      chunk.usage(1, 1),
      chunk.done,
    ]);
    const read = await readChatStreamWithOpenAiSdk(frames);
    expect(read.text).toMatch(/^pong\n\n\[The gateway could not finish/);
    expect(read.finishReason).toBe('stop');
  });

  it('a stream the gateway loses after content ends as an answer; before content, the failure is held', async () => {
    const lost = new GatewayError('upstream', 'Provider "openai" broke off the stream.', { code: 'upstream_stream_interrupted' });
    const started = createEditorStreamWriter(presentation());
    started.push({ raw: '', data: undefined, payload: undefined }, [{ type: 'message-start', id: 'resp_1', model: 'gpt-5' }, { type: 'text-delta', text: 'Hel' }]);
    const chunk = chunksOf('resp_1', 'gpt-5', 0);
    expect(splitFrames(await started.fail(lost))).toEqual([chunk.delta({ content: '\n\n[The gateway could not finish this answer: Provider "openai" broke off the stream.]' }), chunk.finish('stop'), chunk.done]);
    const unstarted = createEditorStreamWriter(presentation());
    unstarted.push({ raw: '', data: undefined, payload: undefined }, [{ type: 'message-start', id: 'resp_1', model: 'gpt-5' }]);
    expect(await unstarted.fail(lost)).toBe('');
    expect(unstarted.heldFailure()).toBe(lost);
  });

  it('a stream the gateway loses after content, usage asked for: the usage chunk (the final usage the request is metered with) before [DONE]', async () => {
    const lost = new GatewayError('upstream', 'Provider "openai" broke off the stream.', { code: 'upstream_stream_interrupted' });
    const metered = { promptTokens: 120, completionTokens: 2, cachedTokens: 0, reasoningTokens: 0, estimated: true };
    const writer = createEditorStreamWriter(presentation({ showUsage: true, finalUsage: async () => metered }));
    writer.push({ raw: '', data: undefined, payload: undefined }, [{ type: 'message-start', id: 'resp_1', model: 'gpt-5' }, { type: 'text-delta', text: 'Hel' }]);
    const chunk = chunksOf('resp_1', 'gpt-5', 0);
    expect(splitFrames(await writer.fail(lost))).toEqual([chunk.delta({ content: '\n\n[The gateway could not finish this answer: Provider "openai" broke off the stream.]' }), chunk.finish('stop'), chunk.usage(120, 2), chunk.done]);
  });
});

describe('an editor stream whose status a heartbeat sent before any content', () => {
  const none = { raw: '', data: undefined, payload: undefined };
  const lost = new GatewayError('upstream', 'Provider "openai" sent nothing for 300 s.', { code: 'upstream_timeout' });

  it('tells a failure of the gateway in-band: the editor would otherwise get an empty answer', async () => {
    const writer = createEditorStreamWriter(presentation());
    writer.push(none, [{ type: 'message-start', id: 'resp_1', model: 'gpt-5' }]);
    writer.statusCommitted();
    const read = await readChatStreamWithOpenAiSdk(splitFrames(await writer.fail(lost)));
    expect(read.text.trim()).toBe('[The gateway could not finish this answer: Provider "openai" sent nothing for 300 s.]');
    expect(writer.heldFailure()).toBeUndefined();
  });

  it("tells the upstream's own error event in-band, and a failure held just before the status went out", async () => {
    const failing = createEditorStreamWriter(presentation());
    failing.statusCommitted();
    const frames = [failing.push(none, [{ type: 'message-start', id: 'resp_1', model: 'gpt-5' }, { type: 'error', errorType: 'rate-limit', message: 'Rate limit reached' }]), await failing.end()].join('');
    expect((await readChatStreamWithOpenAiSdk(splitFrames(frames))).text).toContain('Rate limit reached');

    const heldFirst = createEditorStreamWriter(presentation());
    heldFirst.push(none, [{ type: 'message-start', id: 'resp_1', model: 'gpt-5' }, { type: 'error', errorType: 'rate-limit', message: 'Rate limit reached' }]);
    heldFirst.statusCommitted();
    expect((await readChatStreamWithOpenAiSdk(splitFrames(await heldFirst.end()))).text).toContain('could not finish this answer');
  });
});

describe('an editor stream that fails in-band, usage asked for', () => {
  const none = { raw: '', data: undefined, payload: undefined };
  const metered = { promptTokens: 300, completionTokens: 0, cachedTokens: 0, reasoningTokens: 0, estimated: true };
  const withUsage = () => presentation({ showUsage: true, finalUsage: async () => metered });

  it('ends with the usage chunk whichever way the failure came: the gateway lost the stream, or a failure was held just before the status went out', async () => {
    const lostAfterHeartbeat = createEditorStreamWriter(withUsage());
    lostAfterHeartbeat.push(none, [{ type: 'message-start', id: 'resp_1', model: 'gpt-5' }]);
    lostAfterHeartbeat.statusCommitted();
    const heldFirst = createEditorStreamWriter(withUsage());
    heldFirst.push(none, [{ type: 'message-start', id: 'resp_1', model: 'gpt-5' }, { type: 'error', errorType: 'rate-limit', message: 'Rate limit reached' }]);
    heldFirst.statusCommitted();
    const lost = new GatewayError('upstream', 'Provider "openai" sent nothing for 300 s.', { code: 'upstream_timeout' });
    for (const frames of [await lostAfterHeartbeat.fail(lost), await heldFirst.end()]) {
      const read = await readChatStreamWithOpenAiSdk(splitFrames(frames));
      expect(read.text).toContain('could not finish this answer');
      expect(read.usage).toMatchObject({ prompt_tokens: 300, completion_tokens: 0 });
    }
  });
});

describe('editorStreamErrorFrame (a stream committed before the provider answered, then failed)', () => {
  it('is a whole answer that says why, which the SDK parses', async () => {
    const frames = splitFrames(`: keep-alive\n\n${editorStreamErrorFrame(new GatewayError('upstream', 'Provider "openai" failed with HTTP 500: boom', { code: 'upstream_error' }))}`).slice(1);
    expectWellFormedChatStream(frames);
    const read = await readChatStreamWithOpenAiSdk(frames);
    expect(read.text).toBe('[The gateway could not finish this answer: Provider "openai" failed with HTTP 500: boom]');
    expect(read.finishReason).toBe('stop');
  });
});

describe('every bridged stream is one the official OpenAI SDK parses', () => {
  const recorded = [
    'azure-responses-text-pong.sse',
    'azure-responses-parallel-function-calls.sse',
    'openai-responses-custom-tool-call.chunks.jsonl',
    'responses-stream-reasoning-summary-function-call.chunks.txt',
    'responses-stream-function-call.sse',
    'responses-stream-text.sse',
  ];

  it.each(recorded)('%s: well formed, and the SDK reassembles the text and calls', async (fixture) => {
    const frames = await bridge(recordedEvents(fixture));
    const shape = expectWellFormedChatStream(frames);
    const read = await readChatStreamWithOpenAiSdk(frames, { parseArguments: false });
    expect(read.finishReason).toBe(shape.finishReason);
    expect(read.completion.choices[0]?.message.tool_calls ?? []).toHaveLength(shape.toolCallCount);
    for (const call of read.completion.choices[0]?.message.tool_calls ?? []) expect(call.type).toBe('function');
  });

  it('stays well formed (or holds its failure) when the upstream stops after any event', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...recorded), fc.nat(), async (fixture, cut) => {
        const events = recordedEvents(fixture);
        const frames = await bridge(events.slice(0, cut % (events.length + 1)));
        expectWellFormedChatStream(frames);
        await readChatStreamWithOpenAiSdk(frames, { parseArguments: false });
      }),
      { numRuns: 80 },
    );
  });

  it('names every call a function, however the canonical events mark it', async () => {
    const writer = createEditorStreamWriter(presentation());
    const events: CanonicalEvent[] = [
      { type: 'message-start', id: 'msg_1', model: 'claude' },
      { type: 'tool-call-start', index: 0, id: 'toolu_1', name: 'ApplyPatch', custom: true },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '*** Begin Patch\n*** End Patch' },
      { type: 'tool-call-end', index: 0 },
      { type: 'finish', reason: 'tool-calls' },
    ];
    const frames = splitFrames((await writer.push({ raw: '', data: undefined, payload: undefined }, events)) + (await writer.end()));
    const read = await readChatStreamWithOpenAiSdk(frames, { parseArguments: false });
    expect(read.completion.choices[0]?.message.tool_calls).toEqual([{ id: 'toolu_1', type: 'function', function: { name: 'ApplyPatch', arguments: '*** Begin Patch\n*** End Patch' } }]);
  });
});
