import type { TokenUsage } from '../../core/price-usage.ts';
import { generatedContentText } from './messages-generated-text.ts';
import { readAnthropicUsage } from './messages-usage.ts';

/** What a non-streaming Messages response said about itself, for metering and the generation record. */
export interface MessagesResponseObservation {
  /** The upstream's usage, or undefined when the body carries none (the caller then estimates). */
  usage?: TokenUsage;
  stopReason?: string;
  upstreamId?: string;
  model?: string;
  /** The generated text (text, thinking, tool names and inputs), for estimating when usage is missing. */
  completionText: string;
}

/**
 * Reads a Messages response body for metering. The body itself is relayed unchanged by the native
 * proxy; a body that is not a JSON object yields no usage, and its whole text stands in for the output.
 */
export function meterMessagesResponse(text: string): MessagesResponseObservation {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { completionText: text };
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return { completionText: text };
  const message = body as Record<string, unknown>;
  const usage = readAnthropicUsage(message.usage);
  return {
    ...(usage ? { usage } : {}),
    ...(typeof message.stop_reason === 'string' ? { stopReason: message.stop_reason } : {}),
    ...(typeof message.id === 'string' && message.id ? { upstreamId: message.id } : {}),
    ...(typeof message.model === 'string' && message.model ? { model: message.model } : {}),
    completionText: generatedContentText(message.content),
  };
}
