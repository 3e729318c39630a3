import type { CanonicalEvent } from '../../canonical/canonical-events.ts';
import type { TokenUsage } from '../../core/token-usage.ts';
import { toChatFinishReason } from './chat-finish-reason.ts';
import { renderChatUsage, stringifyWithUsageCost } from './chat-usage.ts';
import { toChatErrorType } from './openai-errors.ts';

export interface ChatChunkWriterOptions {
  /** The model shown in every chunk until the upstream names its own (the model id the gateway sent). */
  model: string;
  /** A usage chunk (`choices: []`) precedes `[DONE]`: the client asked for it, or cost injection shows it. */
  includeUsage: boolean;
  /** Shows the usage chunk with `cost`, priced by this function (usage-cost injection). */
  priceUsd?: (usage: TokenUsage) => string;
  /** Unix seconds for `created` (the translation reads no clock); 0 when not given. */
  created?: number;
  /** The completion id when the upstream names none (chatAnswerId's); `chatcmpl-translated` when not given. */
  fallbackId?: string;
  /** No reasoning deltas: the client asked for reasoning it does not see (reasoningExcluded). */
  hideReasoning?: boolean;
  /** The delta field reasoning goes in (reasoningFieldFor); `reasoning_content` when not given. */
  reasoningField?: 'reasoning' | 'reasoning_content';
}

/**
 * Writes canonical events as OpenAI chat completion chunks (`data: …\n\n` frames), the way OpenAI streams:
 * a role chunk first, content and `reasoning_content` deltas, each tool call opened by a delta carrying
 * its index, id, type, name and empty arguments and continued by argument fragments, one finish_reason
 * chunk, the usage chunk when asked for, then `data: [DONE]`. An error becomes the frame
 * `data: {"error":{…}}` and ends the output (no `[DONE]`: OpenAI's SDKs stop at the error).
 */
export function createChatChunkWriter(options: ChatChunkWriterOptions) {
  let id = '';
  const fallbackId = options.fallbackId ?? 'chatcmpl-translated';
  let started = false;
  let finished = false;
  let closed = false;
  let toolCalls = 0;
  const customCalls = new Set<number>();
  let usage: TokenUsage | undefined;

  const frame = (payload: unknown) => `data: ${JSON.stringify(payload)}\n\n`;
  let model = options.model;
  const envelope = () => ({ id, object: 'chat.completion.chunk', created: options.created ?? 0, model });
  const chunk = (delta: Record<string, unknown>, finishReason: string | null = null) =>
    frame({ ...envelope(), choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }] });

  function open(): string[] {
    if (started) return [];
    started = true;
    id ||= fallbackId;
    return [chunk({ role: 'assistant', content: '' })];
  }

  function write(event: CanonicalEvent): string[] {
    switch (event.type) {
      case 'message-start':
        if (event.usage) usage = event.usage;
        return [];
      case 'text-delta':
        return event.text ? [chunk({ content: event.text })] : [];
      case 'reasoning-delta':
        return event.text && !options.hideReasoning ? [chunk({ [options.reasoningField ?? 'reasoning_content']: event.text })] : [];
      case 'tool-call-start':
        toolCalls += 1;
        if (event.custom) {
          customCalls.add(event.index);
          return [chunk({ tool_calls: [{ index: event.index, id: event.id, type: 'custom', custom: { name: event.name, input: '' } }] })];
        }
        return [chunk({ tool_calls: [{ index: event.index, id: event.id, type: 'function', function: { name: event.name, arguments: '' } }] })];
      case 'tool-call-delta':
        if (!event.argumentsDelta) return [];
        if (customCalls.has(event.index)) return [chunk({ tool_calls: [{ index: event.index, custom: { input: event.argumentsDelta } }] })];
        return [chunk({ tool_calls: [{ index: event.index, function: { arguments: event.argumentsDelta } }] })];
      case 'tool-call-end':
        return [];
      case 'usage':
        usage = event.usage;
        return [];
      case 'web-search':
        return [];
      case 'finish':
        if (finished) return [];
        finished = true;
        return [chunk({}, toChatFinishReason(event.reason))];
      case 'error':
        closed = true;
        return [frame({ error: { message: event.message, type: toChatErrorType(event.errorType), code: null, param: null } })];
    }
  }

  return {
    push(event: CanonicalEvent): string[] {
      if (closed) return [];
      if (event.type === 'error') return write(event);
      // OpenAI's SDK only takes a chunk's usage when the chunk has an id, so an id is never empty.
      if (event.type === 'message-start') {
        id ||= event.id || fallbackId;
        if (event.model) model = event.model;
      }
      const opening = event.type === 'usage' ? [] : open();
      return [...opening, ...write(event)];
    },

    /**
     * Closes the stream: a finish reason if none came (tool_calls when calls were made, else stop), the
     * usage chunk (`finalUsage` when given, e.g. an estimate, else what the stream reported), `[DONE]`.
     */
    end(finalUsage?: TokenUsage): string[] {
      if (closed) return [];
      closed = true;
      const frames = open();
      if (!finished) frames.push(chunk({}, toolCalls > 0 ? 'tool_calls' : 'stop'));
      const shown = finalUsage ?? usage;
      if (options.includeUsage && shown) {
        const usageChunk = { ...envelope(), choices: [] };
        frames.push(options.priceUsd ? `data: ${stringifyWithUsageCost(usageChunk, renderChatUsage(shown), options.priceUsd(shown))}\n\n` : frame({ ...usageChunk, usage: renderChatUsage(shown) }));
      }
      frames.push('data: [DONE]\n\n');
      return frames;
    },
  };
}
