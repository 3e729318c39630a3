import type { TokenUsage } from '../../core/price-usage.ts';
import { parseEventObject, sseEventData } from '../../http/sse-event-splitter.ts';
import { readOpenAiUsage, renderOpenAiUsage, stringifyWithUsageCost } from './chat-usage.ts';

export interface ChatStreamMeterOptions {
  /** The client sent `stream_options.include_usage: true` (the gateway asks the upstream for usage regardless). */
  clientAskedForUsage: boolean;
  /** Usage-cost injection is on: the usage chunk is shown, with `cost`. */
  injectCost: boolean;
  /** The exact USD cost of a usage, as a decimal string. */
  priceUsd: (usage: TokenUsage) => string;
}

type Chunk = Record<string, unknown> & { choices?: unknown; usage?: unknown };

const parseChunk = (data: string): Chunk | undefined => parseEventObject(data);

/**
 * Reads an OpenAI chat stream event by event for metering, and decides what the client sees of usage:
 * events pass unchanged, except the usage chunk, which is shown with `cost` (injection on), shown as sent
 * (client asked), or dropped (neither). A pure state machine: the caller feeds whole SSE events.
 */
export function createChatStreamMeter(options: ChatStreamMeterOptions) {
  let usage: TokenUsage | undefined;
  let usageShown = false;
  let finishReason: string | undefined;
  let upstreamId: string | undefined;
  let model: string | undefined;
  let created: number | undefined;
  let completionText = '';

  function observe(chunk: Chunk): void {
    if (typeof chunk.id === 'string' && chunk.id) upstreamId ??= chunk.id;
    if (typeof chunk.model === 'string' && chunk.model) model ??= chunk.model;
    if (typeof chunk.created === 'number' && chunk.created > 0) created ??= chunk.created;
    for (const choice of Array.isArray(chunk.choices) ? (chunk.choices as unknown[]) : []) {
      if (typeof choice !== 'object' || choice === null) continue;
      const { delta, finish_reason: reason } = choice as { delta?: Record<string, unknown>; finish_reason?: unknown };
      if (typeof reason === 'string') finishReason = reason;
      completionText += collectDeltaText(delta);
    }
  }

  function renderUsageChunk(chunk: Chunk, reported: TokenUsage, rawUsage: Record<string, unknown>): string {
    usageShown = true;
    return `data: ${stringifyWithUsageCost(chunk, rawUsage, options.priceUsd(reported))}\n\n`;
  }

  return {
    /** Takes one whole SSE event; returns what to forward ('' drops it). */
    push(event: string): string {
      const data = sseEventData(event);
      const chunk = data === undefined ? undefined : parseChunk(data);
      if (!chunk) return event;
      observe(chunk);
      const reported = chunk.usage === null || chunk.usage === undefined ? undefined : readOpenAiUsage(chunk.usage);
      if (!reported) return event;
      usage = reported;
      if (options.injectCost) return renderUsageChunk(chunk, reported, chunk.usage as Record<string, unknown>);
      if (options.clientAskedForUsage) {
        usageShown = true;
        return event;
      }
      const hasChoices = Array.isArray(chunk.choices) && chunk.choices.length > 0;
      if (!hasChoices) return '';
      const { usage: _hidden, ...withoutUsage } = chunk;
      return `data: ${JSON.stringify(withoutUsage)}\n\n`;
    },

    /** Whether the client must still get a usage chunk before the stream ends. */
    needsUsageChunk(): boolean {
      return (options.injectCost || options.clientAskedForUsage) && !usageShown;
    },

    /** A usage chunk for a stream whose upstream reported none (the usage is then an estimate). */
    renderMissingUsageChunk(estimate: TokenUsage): string {
      const chunk: Chunk = { id: upstreamId ?? '', object: 'chat.completion.chunk', created: created ?? 0, model: model ?? '', choices: [] };
      const rendered = renderOpenAiUsage(estimate);
      usageShown = true;
      if (options.injectCost) return `data: ${stringifyWithUsageCost(chunk, rendered, options.priceUsd(estimate))}\n\n`;
      return `data: ${JSON.stringify({ ...chunk, usage: rendered })}\n\n`;
    },

    result() {
      return { usage, finishReason, upstreamId, completionText };
    },
  };
}

export type ChatStreamMeter = ReturnType<typeof createChatStreamMeter>;

/** The generated text of a delta (content, refusals, tool-call arguments), for estimating when usage is missing. */
function collectDeltaText(delta: Record<string, unknown> | undefined): string {
  if (!delta) return '';
  let text = '';
  for (const field of ['content', 'refusal', 'reasoning', 'reasoning_content']) {
    const value = delta[field];
    if (typeof value === 'string') text += value;
  }
  if (Array.isArray(delta.tool_calls)) {
    for (const call of delta.tool_calls as Array<{ function?: { name?: unknown; arguments?: unknown } }>) {
      if (typeof call.function?.name === 'string') text += call.function.name;
      if (typeof call.function?.arguments === 'string') text += call.function.arguments;
    }
  }
  return text;
}

export function isDoneEvent(event: string): boolean {
  return sseEventData(event)?.trim() === '[DONE]';
}
