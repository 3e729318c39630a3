import type { CanonicalEvent } from '../../canonical/canonical-events.ts';
import { parseProviderPayload } from '../../canonical/read-payload.ts';
import type { CanonicalRequest } from '../../canonical/canonical-request.ts';
import { customToolNames, unwrapCustomToolInput } from '../../canonical/custom-tool-input.ts';
import { stringifyToolInput } from '../../canonical/tool-arguments.ts';
import { mapAnthropicErrorType } from './anthropic-errors.ts';
import { anthropicStreamEventSchema, type AnthropicBlock, type AnthropicStreamEvent } from './anthropic-wire-types.ts';
import { mapAnthropicStopReason } from './messages-stop-reason.ts';
import { mergeAnthropicUsageCounts, readAnthropicUsageCounts, toTokenUsage, type AnthropicUsageCounts } from './messages-usage.ts';

type OpenBlock =
  | { kind: 'text' | 'thinking' | 'ignored' }
  | { kind: 'tool'; toolIndex: number; initialInput: unknown; sawArguments: boolean }
  /** A custom tool called through its `input` property: its JSON is collected and its text given at the end. */
  | { kind: 'custom-tool'; toolIndex: number; initialInput: unknown; json: string };

/**
 * Reads an Anthropic Messages stream, one event's data at a time, as canonical events. Text, thinking and
 * client tool_use blocks are read; server-tool blocks, their results, redacted thinking and citations have
 * no canonical form and are skipped, as are pings and event types not known yet. Tool calls are numbered
 * among tool_use blocks only. A tool call whose arguments never streamed (an empty-input tool sends only
 * `""`) gets its start input, `{}` at least, as one fragment, so its arguments always parse as JSON.
 * A call of a custom tool of the translated `request` (a JSON tool with an `input` string on Anthropic's
 * side) is a custom tool call again: its text comes as one fragment when the block stops (the text received
 * so far when the output cap cut it off).
 * A stream that ends before `message_stop` and before a `message_delta` with a stop reason was cut off
 * (`cutOff`); a stop reason without `message_stop` is an end (an Anthropic-compatible API may send none).
 */
export function createAnthropicStreamReader(request?: CanonicalRequest) {
  const customTools = customToolNames(request);
  const blocks = new Map<number, OpenBlock>();
  let counts: AnthropicUsageCounts = {};
  let nextToolIndex = 0;
  let started = false;
  let failed = false;
  let ended = false;

  function startBlock(index: number, block: AnthropicBlock | null | undefined): CanonicalEvent[] {
    switch (block?.type) {
      case 'text':
        blocks.set(index, { kind: 'text' });
        return block.text ? [{ type: 'text-delta', index, text: block.text }] : [];
      case 'thinking':
        blocks.set(index, { kind: 'thinking' });
        return block.thinking ? [{ type: 'reasoning-delta', text: block.thinking }] : [];
      case 'tool_use': {
        const toolIndex = nextToolIndex++;
        const custom = customTools.has(block.name ?? '');
        blocks.set(index, custom ? { kind: 'custom-tool', toolIndex, initialInput: block.input, json: '' } : { kind: 'tool', toolIndex, initialInput: block.input, sawArguments: false });
        return [{ type: 'tool-call-start', index: toolIndex, id: block.id ?? '', name: block.name ?? '', ...(custom ? { custom } : {}) }];
      }
      case 'server_tool_use':
        blocks.set(index, { kind: 'ignored' });
        return block.name === 'web_search' ? [{ type: 'web-search' }] : [];
      default:
        blocks.set(index, { kind: 'ignored' });
        return [];
    }
  }

  function readDelta(event: AnthropicStreamEvent): CanonicalEvent[] {
    const index = event.index ?? 0;
    const block = blocks.get(index);
    const delta = event.delta;
    if (!block || !delta) return [];
    if (block.kind === 'text' && delta.type === 'text_delta' && delta.text) return [{ type: 'text-delta', index, text: delta.text }];
    if (block.kind === 'thinking' && delta.type === 'thinking_delta' && delta.thinking) return [{ type: 'reasoning-delta', text: delta.thinking }];
    if (block.kind === 'thinking' && delta.type === 'signature_delta' && delta.signature) {
      return [{ type: 'reasoning-delta', text: '', signature: delta.signature }];
    }
    if (block.kind === 'tool' && delta.type === 'input_json_delta' && delta.partial_json) {
      block.sawArguments = true;
      return [{ type: 'tool-call-delta', index: block.toolIndex, argumentsDelta: delta.partial_json }];
    }
    if (block.kind === 'custom-tool' && delta.type === 'input_json_delta' && delta.partial_json) block.json += delta.partial_json;
    return [];
  }

  function stopBlock(index: number): CanonicalEvent[] {
    const block = blocks.get(index);
    blocks.delete(index);
    if (block?.kind === 'custom-tool') {
      const text = unwrapCustomToolInput(block.json || stringifyToolInput(block.initialInput));
      return [...(text ? [{ type: 'tool-call-delta' as const, index: block.toolIndex, argumentsDelta: text }] : []), { type: 'tool-call-end', index: block.toolIndex }];
    }
    if (block?.kind !== 'tool') return [];
    const end: CanonicalEvent = { type: 'tool-call-end', index: block.toolIndex };
    if (block.sawArguments) return [end];
    return [{ type: 'tool-call-delta', index: block.toolIndex, argumentsDelta: stringifyToolInput(block.initialInput) }, end];
  }

  function read(event: AnthropicStreamEvent): CanonicalEvent[] {
    switch (event.type) {
      case 'message_start':
        counts = readAnthropicUsageCounts(event.message?.usage) ?? {};
        return [{ type: 'message-start', id: event.message?.id ?? '', model: event.message?.model ?? '', usage: toTokenUsage(counts) }];
      case 'content_block_start':
        return startBlock(event.index ?? 0, event.content_block);
      case 'content_block_delta':
        return readDelta(event);
      case 'content_block_stop':
        return stopBlock(event.index ?? 0);
      case 'message_delta': {
        // Only a delta that reports output_tokens makes the usage final (message_start's is a placeholder).
        const update = readAnthropicUsageCounts(event.usage);
        if (update) counts = mergeAnthropicUsageCounts(counts, update);
        const stopReason = event.delta?.stop_reason;
        if (stopReason) ended = true;
        return [
          // A block the stop reason finds still open (the cap cut it off) ends here, before the finish.
          ...(stopReason ? [...blocks.keys()].sort((a, b) => a - b).flatMap(stopBlock) : []),
          ...(update?.outputTokens !== undefined ? [{ type: 'usage' as const, usage: toTokenUsage(counts) }] : []),
          ...(stopReason ? [{ type: 'finish' as const, reason: mapAnthropicStopReason(stopReason), raw: stopReason }] : []),
        ];
      }
      case 'message_stop':
        ended = true;
        return [];
      case 'error':
        failed = true;
        return [{ type: 'error', errorType: mapAnthropicErrorType(event.error?.type), message: event.error?.message ?? 'The upstream stream failed.' }];
      default:
        return [];
    }
  }

  return {
    /** Takes one event's data (parsed JSON or its raw text); returns the canonical events it means. */
    push(eventData: unknown): CanonicalEvent[] {
      if (failed) return [];
      const event = parseProviderPayload(anthropicStreamEventSchema, eventData);
      if (!event) return [];
      const events = read(event);
      const first = events[0]?.type;
      if (!started && first !== undefined && first !== 'message-start' && first !== 'error') events.unshift({ type: 'message-start', id: '', model: '' });
      if (events.length > 0) started = true;
      return events;
    },
    /** Whether the stream ended before its stop reason or `message_stop` (and not on an error event). */
    cutOff: () => !ended && !failed,
  };
}
