import fc from 'fast-check';

/**
 * Random source streams of both protocols, built the way the real upstreams stream (see the recorded
 * fixtures): text split into random deltas, tool calls whose JSON arguments arrive in random fragments
 * (cut anywhere, inside strings and escapes too), thinking, and usage. Each comes with what it means.
 */
export type SourceItem =
  | { kind: 'text'; text: string; pieces: string[] }
  | { kind: 'reasoning'; text: string; pieces: string[] }
  | { kind: 'tool'; id: string; name: string; input: Record<string, unknown>; pieces: string[] };

/** `text` cut at the given positions (taken modulo its length), at least one piece. */
export function cutInto(text: string, cuts: number[]): string[] {
  const offsets = [...new Set(cuts.map((cut) => (text.length === 0 ? 0 : cut % text.length)))].filter((cut) => cut > 0).sort((a, b) => a - b);
  const pieces: string[] = [];
  let from = 0;
  for (const offset of [...offsets, text.length]) {
    pieces.push(text.slice(from, offset));
    from = offset;
  }
  return pieces;
}

const cuts = fc.array(fc.nat(), { maxLength: 6 });
const text = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 });

const textItem = (kind: 'text' | 'reasoning') => fc.record({ text, cuts }).map(({ text: value, cuts: at }) => ({ kind, text: value, pieces: cutInto(value, at) }));

const toolItem = fc
  .record({
    id: fc.stringMatching(/^[A-Za-z0-9]{8,16}$/),
    name: fc.stringMatching(/^[a-z][a-z_]{0,15}$/),
    input: fc.dictionary(fc.stringMatching(/^[a-z]{1,6}$/), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
    cuts,
  })
  .map(({ id, name, input, cuts: at }) => {
    const json = JSON.stringify(input);
    return { kind: 'tool' as const, id, name, input: JSON.parse(json) as Record<string, unknown>, pieces: cutInto(json, at) };
  });

// A response never names two tool calls alike: each id gets its position (fast-check likes repeating values).
export const sourceItems = fc
  .array(fc.oneof(textItem('text'), textItem('reasoning'), toolItem), { maxLength: 6 })
  .map((items) => items.map((item, position) => (item.kind === 'tool' ? { ...item, id: `${item.id}${position}` } : item)));

export const sourceUsage = fc.record({
  input: fc.nat({ max: 200_000 }),
  cacheRead: fc.nat({ max: 100_000 }),
  cacheWrite: fc.nat({ max: 100_000 }),
  output: fc.nat({ max: 50_000 }),
});
export type SourceUsage = typeof sourceUsage extends fc.Arbitrary<infer U> ? U : never;

/** The concatenated text, reasoning and the tool calls the items mean. */
export function meaningOf(items: SourceItem[]) {
  return {
    text: items.flatMap((item) => (item.kind === 'text' ? [item.text] : [])).join(''),
    reasoning: items.flatMap((item) => (item.kind === 'reasoning' ? [item.text] : [])).join(''),
    toolCalls: items.flatMap((item) => (item.kind === 'tool' ? [{ id: item.id, name: item.name, input: item.input }] : [])),
  };
}

/** An Anthropic stream's event payloads: one content block per item, pings sprinkled in, server tools too. */
export function anthropicSourceEvents(items: SourceItem[], usage: SourceUsage, stopReason: string, withServerTool: boolean) {
  const events: Array<Record<string, unknown>> = [];
  const usageStart = { input_tokens: usage.input, cache_creation_input_tokens: usage.cacheWrite, cache_read_input_tokens: usage.cacheRead, output_tokens: 1 };
  events.push({ type: 'message_start', message: { id: 'msg_source', type: 'message', role: 'assistant', model: 'claude-source', content: [], stop_reason: null, usage: usageStart } });
  let index = 0;
  const block = (start: Record<string, unknown>, deltas: Array<Record<string, unknown>>) => {
    events.push({ type: 'content_block_start', index, content_block: start }, { type: 'ping' });
    for (const delta of deltas) events.push({ type: 'content_block_delta', index, delta });
    events.push({ type: 'content_block_stop', index });
    index += 1;
  };
  if (withServerTool) block({ type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: {} }, [{ type: 'input_json_delta', partial_json: '{"query":"x"}' }]);
  for (const item of items) {
    if (item.kind === 'text') block({ type: 'text', text: '' }, item.pieces.map((piece) => ({ type: 'text_delta', text: piece })));
    if (item.kind === 'reasoning') {
      block({ type: 'thinking', thinking: '', signature: '' }, [
        ...item.pieces.map((piece) => ({ type: 'thinking_delta', thinking: piece })),
        { type: 'signature_delta', signature: 'c2lnbmF0dXJl' },
      ]);
    }
    if (item.kind === 'tool') {
      block({ type: 'tool_use', id: item.id, name: item.name, input: {} }, [
        { type: 'input_json_delta', partial_json: '' },
        ...item.pieces.map((piece) => ({ type: 'input_json_delta', partial_json: piece })),
      ]);
    }
  }
  events.push({ type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: usage.output } });
  events.push({ type: 'message_stop' });
  return events;
}

/** A chat stream's chunk payloads (then `[DONE]`): role chunk, deltas, tool calls by index, finish, usage. */
export function chatSourceChunks(items: SourceItem[], usage: SourceUsage, finishReason: string): unknown[] {
  const envelope = { id: 'chatcmpl-source', object: 'chat.completion.chunk', created: 1, model: 'gpt-source' };
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({ ...envelope, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }], usage: null });
  const chunks: unknown[] = [chunk({ role: 'assistant', content: '' })];
  let toolIndex = 0;
  for (const item of items) {
    if (item.kind === 'text') chunks.push(...item.pieces.map((piece) => chunk({ content: piece })));
    if (item.kind === 'reasoning') chunks.push(...item.pieces.map((piece) => chunk({ reasoning_content: piece })));
    if (item.kind === 'tool') {
      const index = toolIndex++;
      chunks.push(chunk({ tool_calls: [{ index, id: item.id, type: 'function', function: { name: item.name, arguments: '' } }] }));
      chunks.push(...item.pieces.map((piece) => chunk({ tool_calls: [{ index, function: { arguments: piece } }] })));
    }
  }
  chunks.push(chunk({}, finishReason));
  const promptTokens = usage.input + usage.cacheRead;
  chunks.push({ ...envelope, choices: [], usage: { prompt_tokens: promptTokens, completion_tokens: usage.output, total_tokens: promptTokens + usage.output, prompt_tokens_details: { cached_tokens: usage.cacheRead } } });
  chunks.push('[DONE]');
  return chunks;
}

/**
 * A Responses stream's event payloads, numbered as OpenAI numbers them: created and in_progress, one output
 * item per source item (a message with output_text deltas, reasoning with summary deltas, a function call
 * with argument deltas), each added, streamed and done, then the terminal event with the usage.
 */
export function responsesSourceEvents(items: SourceItem[], usage: SourceUsage, end: 'completed' | 'max_output_tokens' | 'content_filter'): Array<Record<string, unknown>> {
  let sequence = 0;
  const events: Array<Record<string, unknown>> = [];
  const push = (event: Record<string, unknown>) => events.push({ ...event, sequence_number: sequence++ });
  const response = { id: 'resp_source', object: 'response', created_at: 1, status: 'in_progress', model: 'gpt-source', output: [] as unknown[], usage: null };
  push({ type: 'response.created', response });
  push({ type: 'response.in_progress', response });
  const output: unknown[] = [];
  items.forEach((item, outputIndex) => {
    const where = { output_index: outputIndex, item_id: `item_${outputIndex}` };
    let done: Record<string, unknown>;
    if (item.kind === 'text') {
      push({ type: 'response.output_item.added', output_index: outputIndex, item: { id: where.item_id, type: 'message', status: 'in_progress', role: 'assistant', content: [] } });
      push({ type: 'response.content_part.added', ...where, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } });
      for (const piece of item.pieces) push({ type: 'response.output_text.delta', ...where, content_index: 0, delta: piece, logprobs: [] });
      push({ type: 'response.output_text.done', ...where, content_index: 0, text: item.text, logprobs: [] });
      push({ type: 'response.content_part.done', ...where, content_index: 0, part: { type: 'output_text', text: item.text, annotations: [] } });
      done = { id: where.item_id, type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: item.text, annotations: [] }] };
    } else if (item.kind === 'reasoning') {
      push({ type: 'response.output_item.added', output_index: outputIndex, item: { id: where.item_id, type: 'reasoning', summary: [], encrypted_content: 'gAAAA-added' } });
      push({ type: 'response.reasoning_summary_part.added', ...where, summary_index: 0, part: { type: 'summary_text', text: '' } });
      for (const piece of item.pieces) push({ type: 'response.reasoning_summary_text.delta', ...where, summary_index: 0, delta: piece });
      push({ type: 'response.reasoning_summary_text.done', ...where, summary_index: 0, text: item.text });
      push({ type: 'response.reasoning_summary_part.done', ...where, summary_index: 0, part: { type: 'summary_text', text: item.text } });
      done = { id: where.item_id, type: 'reasoning', summary: [{ type: 'summary_text', text: item.text }], encrypted_content: 'gAAAA-done' };
    } else {
      const json = JSON.stringify(item.input);
      push({ type: 'response.output_item.added', output_index: outputIndex, item: { id: where.item_id, type: 'function_call', status: 'in_progress', arguments: '', call_id: item.id, name: item.name } });
      for (const piece of item.pieces) push({ type: 'response.function_call_arguments.delta', ...where, delta: piece });
      push({ type: 'response.function_call_arguments.done', ...where, arguments: json });
      done = { id: where.item_id, type: 'function_call', status: 'completed', arguments: json, call_id: item.id, name: item.name };
    }
    output.push(done);
    push({ type: 'response.output_item.done', output_index: outputIndex, item: done });
  });
  const promptTokens = usage.input + usage.cacheRead;
  const finalUsage = { input_tokens: promptTokens, input_tokens_details: { cached_tokens: usage.cacheRead }, output_tokens: usage.output, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: promptTokens + usage.output };
  const incomplete = end !== 'completed';
  push({
    type: incomplete ? 'response.incomplete' : 'response.completed',
    response: { ...response, status: incomplete ? 'incomplete' : 'completed', incomplete_details: incomplete ? { reason: end } : null, output, usage: finalUsage },
  });
  return events;
}
