import type { CanonicalEvent, CanonicalUsage } from '../../canonical/canonical-events.ts';
import { toChatErrorType } from '../../canonical/map-error-type.ts';
import { toChatFinishReason } from '../../canonical/map-finish-reason.ts';
import { renderChatUsage } from '../../canonical/translate-usage.ts';

export interface ChatChunkWriterOptions {
  /** The model name the client asked for, shown in every chunk. */
  model: string;
  /** The client sent `stream_options.include_usage: true`: a usage chunk (`choices: []`) precedes `[DONE]`. */
  includeUsage: boolean;
  /** Unix seconds for `created` (the translation reads no clock); 0 when not given. */
  created?: number;
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
  let started = false;
  let finished = false;
  let closed = false;
  let toolCalls = 0;
  let usage: CanonicalUsage | undefined;

  const frame = (payload: unknown) => `data: ${JSON.stringify(payload)}\n\n`;
  const envelope = () => ({ id, object: 'chat.completion.chunk', created: options.created ?? 0, model: options.model });
  const chunk = (delta: Record<string, unknown>, finishReason: string | null = null) =>
    frame({ ...envelope(), choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }] });

  function open(): string[] {
    if (started) return [];
    started = true;
    id ||= 'chatcmpl-translated';
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
        return event.text ? [chunk({ reasoning_content: event.text })] : [];
      case 'tool-call-start':
        toolCalls += 1;
        return [chunk({ tool_calls: [{ index: event.index, id: event.id, type: 'function', function: { name: event.name, arguments: '' } }] })];
      case 'tool-call-delta':
        return event.argumentsDelta ? [chunk({ tool_calls: [{ index: event.index, function: { arguments: event.argumentsDelta } }] })] : [];
      case 'tool-call-end':
        return [];
      case 'usage': {
        const { type: _type, ...counts } = event;
        usage = counts;
        return [];
      }
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
      if (event.type === 'message-start') id ||= event.id || 'chatcmpl-translated';
      const opening = event.type === 'usage' ? [] : open();
      return [...opening, ...write(event)];
    },

    /** Closes the stream: a finish reason if none came (tool_calls when calls were made, else stop), usage, `[DONE]`. */
    end(): string[] {
      if (closed) return [];
      closed = true;
      const frames = open();
      if (!finished) frames.push(chunk({}, toolCalls > 0 ? 'tool_calls' : 'stop'));
      if (options.includeUsage && usage) frames.push(frame({ ...envelope(), choices: [], usage: renderChatUsage(usage) }));
      frames.push('data: [DONE]\n\n');
      return frames;
    },

    /** What the stream reported, for metering: the final usage, if any came. */
    usage(): CanonicalUsage | undefined {
      return usage;
    },
  };
}
