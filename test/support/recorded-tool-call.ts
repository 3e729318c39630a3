import { anthropicFixtureBody, responsesFixtureBody } from '../canonical/support/sse-replay.ts';
import { sseEvents } from './fake-openai-upstream.ts';

/** A tool call to put into a recorded stream: the tool's name and its JSON arguments. */
export interface ToolCall {
  name: string;
  arguments: string;
}

/** `text` cut into `count` pieces (the last takes the rest), so a stream keeps its number of deltas. */
function cutInto(text: string, count: number): string[] {
  const size = Math.ceil(text.length / Math.max(count, 1));
  return Array.from({ length: count }, (_, index) => text.slice(index * size, index === count - 1 ? undefined : (index + 1) * size));
}

function rewrite(body: string, change: (event: Record<string, unknown>, deltaPiece: () => string) => void, isDelta: (event: Record<string, unknown>) => boolean, call: ToolCall): string[] {
  const events = sseEvents(body).map((raw) => ({ name: /^event: (.*)$/m.exec(raw)?.[1], data: JSON.parse(/^data: (.*)$/m.exec(raw)?.[1] ?? '{}') as Record<string, unknown> }));
  const pieces = cutInto(call.arguments, events.filter((event) => isDelta(event.data)).length);
  let next = 0;
  return events.map(({ name, data }) => {
    change(data, () => pieces[next++] ?? '');
    return `${name ? `event: ${name}\n` : ''}data: ${JSON.stringify(data)}\n\n`;
  });
}

/**
 * A recorded Responses stream with one function call, changed to call `call` (name and arguments; the
 * argument deltas keep their number): what a model would stream to ask a client to run a tool.
 */
export function responsesStreamCalling(fixture: string, call: ToolCall): string[] {
  const isDelta = (event: Record<string, unknown>) => event.type === 'response.function_call_arguments.delta';
  const fixItem = (item: unknown) => {
    const record = item as Record<string, unknown> | undefined;
    if (record?.type !== 'function_call') return;
    record.name = call.name;
    if (record.status === 'completed') record.arguments = call.arguments;
  };
  return rewrite(
    responsesFixtureBody(fixture),
    (event, piece) => {
      fixItem(event.item);
      if (isDelta(event)) event.delta = piece();
      if (event.type === 'response.function_call_arguments.done') event.arguments = call.arguments;
      for (const item of ((event.response as { output?: unknown[] } | undefined)?.output ?? [])) fixItem(item);
    },
    isDelta,
    call,
  );
}

/** A recorded Anthropic stream with one tool_use block, changed to call `call` (its input_json_delta fragments keep their number). */
export function anthropicStreamCalling(fixture: string, call: ToolCall): string[] {
  const isDelta = (event: Record<string, unknown>) => (event.delta as { type?: string } | undefined)?.type === 'input_json_delta' && (event.delta as { partial_json?: string }).partial_json !== '';
  return rewrite(
    anthropicFixtureBody(fixture),
    (event, piece) => {
      const block = event.content_block as { type?: string; name?: string } | undefined;
      if (block?.type === 'tool_use') block.name = call.name;
      if (isDelta(event)) (event.delta as { partial_json: string }).partial_json = piece();
    },
    isDelta,
    call,
  );
}
