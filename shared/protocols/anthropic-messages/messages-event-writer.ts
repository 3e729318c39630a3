import type { CanonicalEvent, FinishReason } from '../../canonical/canonical-events.ts';
import { CUSTOM_TOOL_INPUT_PROPERTY } from '../../canonical/custom-tool-input.ts';
import type { TokenUsage } from '../../core/token-usage.ts';
import { stringifyWithUsageCost } from '../openai-chat/chat-usage.ts';
import { toAnthropicErrorType } from './anthropic-errors.ts';
import { anthropicStopOf } from './messages-stop-reason.ts';
import { renderAnthropicUsage } from './messages-usage.ts';
import { thinkingSignatureOf } from './openai-reasoning-signature.ts';

export interface MessagesEventWriterOptions {
  /** The model shown until the upstream names its own (the model id the gateway sent). */
  model: string;
  /** The message id to show (`msg_…`), chosen by the caller (the translation makes no ids). */
  messageId: string;
  /** Input tokens to announce in message_start before the upstream's usage arrives (it comes last in chat). */
  inputTokensEstimate?: number;
  /** Shows message_delta's usage with `cost`, priced by this function (usage-cost injection). */
  priceUsd?: (usage: TokenUsage) => string;
}

type OpenBlock =
  | { kind: 'text' | 'thinking'; index: number }
  /** A custom tool's call: its free text is written as the JSON string of an `input` property, opened on the first fragment. */
  | { kind: 'tool'; index: number; toolIndex: number; custom: boolean; inputOpened: boolean };

/** The JSON text of a string's characters without its quotes (a fragment inside a JSON string). */
const jsonStringContent = (text: string) => JSON.stringify(text).slice(1, -1);
const CUSTOM_INPUT_OPENING = `{"${CUSTOM_TOOL_INPUT_PROPERTY}":"`;

/**
 * Writes canonical events as Anthropic Messages stream events (`event: <type>\ndata: <json>\n\n`), well
 * formed the way Anthropic streams them: one message_start first; content blocks one at a time with dense
 * indexes from 0, each started, given its deltas and stopped before the next starts (thinking, text,
 * tool_use with input_json_delta fragments; a custom tool's free text as its `input` string); then one message_delta (stop_reason, stop_sequence and usage) and one
 * message_stop, written by `end` so the usage that follows a chat finish chunk is included. An error
 * becomes `event: error` and ends the output, as an Anthropic stream does (no message_stop after it).
 */
export function createMessagesEventWriter(options: MessagesEventWriterOptions) {
  let started = false;
  let closed = false;
  let block: OpenBlock | undefined;
  let nextBlockIndex = 0;
  let madeToolCalls = false;
  let finish: FinishReason | undefined;
  /** The stop sequence the finish stopped at (present only for such a stop), as FinishEvent's. */
  let stopSequence: string | null | undefined;
  let usage: TokenUsage | undefined;
  let model = options.model;

  const frame = (type: string, payload: Record<string, unknown>) => `event: ${type}\ndata: ${JSON.stringify({ type, ...payload })}\n\n`;

  function messageStart(): string[] {
    if (started) return [];
    started = true;
    const message = {
      id: options.messageId,
      type: 'message',
      role: 'assistant',
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: options.inputTokensEstimate ?? 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 0 },
    };
    return [frame('message_start', { message })];
  }

  function closeBlock(): string[] {
    if (!block) return [];
    const frames: string[] = [];
    if (block.kind === 'tool' && block.custom) {
      const ending = `${block.inputOpened ? '' : CUSTOM_INPUT_OPENING}"}`;
      frames.push(frame('content_block_delta', { index: block.index, delta: { type: 'input_json_delta', partial_json: ending } }));
    }
    frames.push(frame('content_block_stop', { index: block.index }));
    block = undefined;
    return frames;
  }

  function openBlock(next: OpenBlock, contentBlock: Record<string, unknown>): string[] {
    const frames = closeBlock();
    block = next;
    frames.push(frame('content_block_start', { index: next.index, content_block: contentBlock }));
    return frames;
  }

  /** Continues the open block of `kind`, or opens a new one. */
  function inBlock(kind: 'text' | 'thinking', contentBlock: Record<string, unknown>): string[] {
    if (block?.kind === kind) return [];
    return openBlock({ kind, index: nextBlockIndex++ }, contentBlock);
  }

  function delta(payload: Record<string, unknown>): string {
    return frame('content_block_delta', { index: block?.index ?? 0, delta: payload });
  }

  function write(event: CanonicalEvent): string[] {
    switch (event.type) {
      case 'message-start':
        return [];
      case 'text-delta':
        if (!event.text) return [];
        return [...inBlock('text', { type: 'text', text: '' }), delta({ type: 'text_delta', text: event.text })];
      case 'reasoning-delta': {
        // OpenAI's encrypted reasoning goes as the signature, for the client to send back (openai-reasoning-signature.ts).
        const signature = thinkingSignatureOf(event);
        const frames = event.text || signature ? inBlock('thinking', { type: 'thinking', thinking: '', signature: '' }) : [];
        if (event.text) frames.push(delta({ type: 'thinking_delta', thinking: event.text }));
        if (signature) frames.push(delta({ type: 'signature_delta', signature }));
        return frames;
      }
      case 'tool-call-start':
        madeToolCalls = true;
        return openBlock(
          { kind: 'tool', index: nextBlockIndex++, toolIndex: event.index, custom: event.custom === true, inputOpened: false },
          { type: 'tool_use', id: event.id, name: event.name, input: {} },
        );
      case 'tool-call-delta': {
        if (block?.kind !== 'tool' || block.toolIndex !== event.index || !event.argumentsDelta) return [];
        if (!block.custom) return [delta({ type: 'input_json_delta', partial_json: event.argumentsDelta })];
        const opening = block.inputOpened ? '' : CUSTOM_INPUT_OPENING;
        block.inputOpened = true;
        return [delta({ type: 'input_json_delta', partial_json: opening + jsonStringContent(event.argumentsDelta) })];
      }
      case 'tool-call-end':
        return block?.kind === 'tool' && block.toolIndex === event.index ? closeBlock() : [];
      case 'usage':
        usage = event.usage;
        return [];
      case 'web-search':
        return [];
      case 'finish':
        if (finish === undefined) {
          finish = event.reason;
          stopSequence = event.stopSequence;
        }
        return closeBlock();
      case 'error':
        closed = true;
        return [frame('error', { error: { type: toAnthropicErrorType(event.errorType), message: event.message } })];
    }
  }

  return {
    push(event: CanonicalEvent): string[] {
      if (closed) return [];
      if (event.type === 'error') return write(event);
      if (event.type === 'message-start' && event.model) model = event.model;
      return [...messageStart(), ...write(event)];
    },

    /**
     * Closes the message: stops any open block, then message_delta (stop_reason and stop_sequence, usage: `finalUsage` when
     * given, e.g. an estimate, else what the stream reported; with `cost` when priced) and message_stop.
     */
    end(finalUsage?: TokenUsage): string[] {
      if (closed) return [];
      closed = true;
      const frames = [...messageStart(), ...closeBlock()];
      const delta = { delta: anthropicStopOf(finish ?? 'stop', madeToolCalls, stopSequence) };
      const shown = finalUsage ?? usage;
      if (options.priceUsd && shown) {
        frames.push(`event: message_delta\ndata: ${stringifyWithUsageCost({ type: 'message_delta', ...delta }, renderAnthropicUsage(shown), options.priceUsd(shown))}\n\n`);
      } else {
        frames.push(frame('message_delta', { ...delta, usage: shown ? renderAnthropicUsage(shown) : { output_tokens: 0 } }));
      }
      frames.push(frame('message_stop', {}));
      return frames;
    },
  };
}
