import type { TokenUsage } from '../core/token-usage.ts';
import type { CanonicalErrorType, CanonicalEvent, FinishReason } from './canonical-events.ts';

/** What an upstream's answer said about itself, for metering and the generation record. */
export interface MeteredObservation {
  /** The upstream's final usage (the last `usage` event), or undefined when it reported none. */
  usage?: TokenUsage;
  /** Usage known before the final one (Anthropic's message_start: the prompt, and an output placeholder). */
  provisionalUsage?: TokenUsage;
  /** The upstream's own finish word (e.g. `stop`, `end_turn`). */
  finishReason?: string;
  /** The same in canonical words. */
  finish?: FinishReason;
  upstreamId?: string;
  /** The generated text (text, reasoning, tool names and arguments), for estimating when usage is missing. */
  completionText: string;
  /** Whether the upstream began an answer: text, reasoning (hidden reasoning's signature or encrypted content too), a tool call. */
  generated?: true;
  /** The web searches the stream announced, for the estimate when its final usage never came. */
  webSearches?: number;
  /** The upstream's in-band error, if it sent one. */
  upstreamError?: { type: CanonicalErrorType; message: string };
}

/**
 * Meters a stream from the canonical events its reader produced (so a stream is parsed once, whether it
 * is passed through natively or translated). A pure state machine.
 */
export function createCanonicalMeter() {
  const observed: MeteredObservation = { completionText: '' };
  return {
    observe(events: readonly CanonicalEvent[]): void {
      for (const event of events) {
        switch (event.type) {
          case 'message-start':
            if (event.id) observed.upstreamId ??= event.id;
            if (event.usage) observed.provisionalUsage = event.usage;
            break;
          case 'text-delta':
          case 'reasoning-delta':
            observed.generated = true;
            observed.completionText += event.text;
            break;
          case 'tool-call-start':
            observed.generated = true;
            observed.completionText += event.name;
            break;
          case 'tool-call-delta':
            observed.completionText += event.argumentsDelta;
            break;
          case 'usage':
            observed.usage = event.usage;
            break;
          case 'web-search':
            observed.webSearches = (observed.webSearches ?? 0) + 1;
            break;
          case 'finish':
            observed.finish = event.reason;
            if (event.raw) observed.finishReason = event.raw;
            break;
          case 'error':
            observed.upstreamError = { type: event.errorType, message: event.message };
            break;
        }
      }
    },
    result(): MeteredObservation {
      return observed;
    },
  };
}

export type CanonicalMeter = ReturnType<typeof createCanonicalMeter>;
