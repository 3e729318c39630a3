/**
 * Rebuilds a message from Anthropic stream events the way @anthropic-ai/sdk's MessageStream does, but
 * strictly: anything its accumulation tolerates yet Anthropic never sends (a second message_start, a delta
 * to a block that is not open, overlapping blocks, a gap in block indexes, events after message_stop) is
 * an error here, so a passing stream is well formed, not merely readable.
 */
export interface AccumulatedBlock {
  type: string;
  text?: string;
  thinking?: string;
  signature?: string;
  id?: string;
  name?: string;
  input?: unknown;
}

export interface AccumulatedMessage {
  id: string;
  model: string;
  content: AccumulatedBlock[];
  stop_reason: string | null;
  usage: Record<string, number>;
}

/** An `event: error` in the stream (the SDK throws an APIError). */
export class AnthropicStreamError extends Error {
  override readonly name = 'AnthropicStreamError';
  readonly error: { type: string; message: string };

  constructor(error: { type: string; message: string }) {
    super(error.message);
    this.error = error;
  }
}

type Event = Record<string, unknown> & { type: string };
const toolTypes = new Set(['tool_use', 'server_tool_use', 'mcp_tool_use']);
const deltaOwner: Record<string, (type: string) => boolean> = {
  text_delta: (type) => type === 'text',
  citations_delta: (type) => type === 'text',
  thinking_delta: (type) => type === 'thinking',
  signature_delta: (type) => type === 'thinking',
  input_json_delta: (type) => toolTypes.has(type),
};

function fail(message: string): never {
  throw new Error(`malformed stream: ${message}`);
}

/** The events of translated frames, checking each frame is `event: <type>\ndata: <json with that type>\n\n`. */
export function parseAnthropicFrames(frames: string[]): Event[] {
  return frames.map((frame) => {
    const match = /^event: ([a-z_]+)\ndata: (.*)\n\n$/s.exec(frame);
    if (!match) fail(`frame is not "event: …\\ndata: …\\n\\n": ${JSON.stringify(frame)}`);
    const event = JSON.parse(match[2] ?? '') as Event;
    if (event.type !== match[1]) fail(`event line ${match[1]} but data type ${event.type}`);
    return event;
  });
}

/** `parseToolInput: false` keeps a tool's input unparsed, for streams cut inside its arguments. */
export function accumulateAnthropicEvents(events: Event[], { parseToolInput = true } = {}): AccumulatedMessage {
  let message: AccumulatedMessage | undefined;
  let open: { index: number; json: string } | undefined;
  let sawDelta = false;
  let stopped = false;
  for (const event of events) {
    if (stopped) fail(`${event.type} after message_stop`);
    if (event.type === 'ping') continue;
    if (event.type === 'error') throw new AnthropicStreamError(event.error as { type: string; message: string });
    if (event.type === 'message_start') {
      if (message) fail('second message_start');
      const start = event.message as AccumulatedMessage;
      message = { ...start, content: [], usage: { ...start.usage } };
      continue;
    }
    if (!message) fail(`${event.type} before message_start`);
    const index = event.index as number;
    switch (event.type) {
      case 'content_block_start':
        if (open) fail(`block ${index} started while block ${open.index} is open`);
        if (sawDelta) fail('block started after message_delta');
        if (index !== message.content.length) fail(`block index ${index}, expected ${message.content.length}`);
        message.content.push({ ...(event.content_block as AccumulatedBlock) });
        open = { index, json: '' };
        break;
      case 'content_block_delta': {
        const block = message.content[index];
        const delta = event.delta as Record<string, string> & { type: string };
        if (!open || open.index !== index || !block) fail(`delta to block ${index}, which is not open`);
        if (!deltaOwner[delta.type]?.(block.type)) fail(`${delta.type} in a ${block.type} block`);
        if (delta.type === 'text_delta') block.text = (block.text ?? '') + delta.text;
        if (delta.type === 'thinking_delta') block.thinking = (block.thinking ?? '') + delta.thinking;
        if (delta.type === 'signature_delta') block.signature = delta.signature;
        if (delta.type === 'input_json_delta') open.json += delta.partial_json;
        break;
      }
      case 'content_block_stop': {
        const block = message.content[index];
        if (!open || open.index !== index || !block) fail(`stop of block ${index}, which is not open`);
        if (parseToolInput && toolTypes.has(block.type) && open.json !== '') block.input = JSON.parse(open.json) as unknown;
        open = undefined;
        break;
      }
      case 'message_delta': {
        if (open) fail(`message_delta while block ${open.index} is open`);
        if (sawDelta) fail('second message_delta');
        sawDelta = true;
        message.stop_reason = (event.delta as { stop_reason: string | null }).stop_reason;
        for (const [field, value] of Object.entries(event.usage as Record<string, unknown>)) {
          if (typeof value === 'number') message.usage[field] = value;
        }
        break;
      }
      case 'message_stop':
        if (!sawDelta) fail('message_stop without message_delta');
        stopped = true;
        break;
      default:
        break;
    }
  }
  if (!message || !stopped) fail('the stream ended without message_stop');
  return message;
}

/** The text of a message's text blocks, the tool calls, and the prompt it counted (input + cache writes + reads). */
export function summarizeMessage(message: AccumulatedMessage) {
  const usage = message.usage;
  return {
    text: message.content.flatMap((block) => (block.type === 'text' ? [block.text ?? ''] : [])).join(''),
    thinking: message.content.flatMap((block) => (block.type === 'thinking' ? [block.thinking ?? ''] : [])).join(''),
    toolCalls: message.content.filter((block) => block.type === 'tool_use').map(({ id, name, input }) => ({ id, name, input: input ?? {} })),
    promptTokens: (usage.input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0),
    cachedTokens: usage.cache_read_input_tokens ?? 0,
    outputTokens: usage.output_tokens ?? 0,
  };
}
