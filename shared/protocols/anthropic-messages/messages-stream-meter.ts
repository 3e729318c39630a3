import type { TokenUsage } from '../../core/price-usage.ts';
import { asJsonObject } from '../../core/json-object.ts';
import { parseEventObject, sseEventData } from '../../http/sse-event-splitter.ts';
import { readAnthropicErrorBody } from './anthropic-errors.ts';
import { mergeAnthropicUsageCounts, readAnthropicUsageCounts, toTokenUsage, type AnthropicUsageCounts } from './messages-usage.ts';
import { generatedBlockText, generatedDeltaText } from './messages-generated-text.ts';

/** What a native Messages stream said about itself, for metering and the generation record. */
export interface MessagesStreamObservation {
  /** The upstream's usage (message_start merged with every message_delta), or undefined if it sent none. */
  usage?: TokenUsage;
  /**
   * A message_delta reported usage: only then is output_tokens final. message_start's output_tokens is
   * a placeholder of a token or two, so a stream cut off before message_delta needs an estimate of its output.
   */
  outputTokensFinal: boolean;
  stopReason?: string;
  upstreamId?: string;
  model?: string;
  /** The generated text (text, tool input JSON, thinking), for estimating when usage is missing. */
  completionText: string;
  /** The upstream's mid-stream `error` event, if it sent one. */
  upstreamError?: { type: string; message: string };
  /** message_stop arrived: the upstream finished the message. */
  completed: boolean;
}

type StreamPayload = Record<string, unknown> & { type?: unknown };

const parsePayload = (data: string): StreamPayload | undefined => parseEventObject(data);

/**
 * Reads a native Anthropic Messages stream event by event, beside the bytes: every event is forwarded
 * exactly as received (unknown event types, content blocks and fields included), so the native proxy
 * never changes what the client sees. A pure state machine: the caller feeds whole SSE events.
 */
export function createMessagesStreamMeter() {
  let counts: AnthropicUsageCounts | undefined;
  let outputTokensFinal = false;
  let stopReason: string | undefined;
  let upstreamId: string | undefined;
  let model: string | undefined;
  let completionText = '';
  let upstreamError: { type: string; message: string } | undefined;
  let completed = false;

  /** Merges a usage object's counts into the running ones; returns what it carried. */
  function addUsage(usage: unknown): AnthropicUsageCounts | undefined {
    const reported = readAnthropicUsageCounts(usage);
    if (reported) counts = mergeAnthropicUsageCounts(counts ?? {}, reported);
    return reported;
  }

  function observe(payload: StreamPayload, data: string): void {
    switch (payload.type) {
      case 'message_start': {
        const message = asJsonObject(payload.message);
        if (typeof message?.id === 'string' && message.id) upstreamId ??= message.id;
        if (typeof message?.model === 'string' && message.model) model ??= message.model;
        addUsage(message?.usage);
        break;
      }
      case 'content_block_start':
        completionText += generatedBlockText(asJsonObject(payload.content_block));
        break;
      case 'content_block_delta':
        completionText += generatedDeltaText(asJsonObject(payload.delta));
        break;
      case 'message_delta': {
        const delta = asJsonObject(payload.delta);
        if (typeof delta?.stop_reason === 'string') stopReason = delta.stop_reason;
        if (addUsage(payload.usage)?.outputTokens !== undefined) outputTokensFinal = true;
        break;
      }
      case 'message_stop':
        completed = true;
        break;
      case 'error':
        upstreamError = readAnthropicErrorBody(data)?.error ?? { type: 'api_error', message: data };
        break;
    }
  }

  return {
    /** Takes one whole SSE event and returns it unchanged: a native stream is relayed byte for byte. */
    push(event: string): string {
      const data = sseEventData(event);
      const payload = data === undefined ? undefined : parsePayload(data);
      if (payload && data !== undefined) observe(payload, data);
      return event;
    },

    result(): MessagesStreamObservation {
      return {
        ...(counts ? { usage: toTokenUsage(counts) } : {}),
        outputTokensFinal,
        ...(stopReason ? { stopReason } : {}),
        ...(upstreamId ? { upstreamId } : {}),
        ...(model ? { model } : {}),
        completionText,
        ...(upstreamError ? { upstreamError } : {}),
        completed,
      };
    },
  };
}

export type MessagesStreamMeter = ReturnType<typeof createMessagesStreamMeter>;
