import { createAnthropicStreamReader } from '../protocols/anthropic-messages/anthropic-stream-reader.ts';
import { createChatChunkWriter, type ChatChunkWriterOptions } from '../protocols/openai-chat/chat-chunk-writer.ts';

/**
 * Translates an Anthropic Messages stream into an OpenAI chat completion stream (for a chat client on an
 * Anthropic model). A pure state machine: feed each upstream SSE event's data (parsed JSON or raw text;
 * pings and unknown events are skipped) to `push`, which returns the chat SSE frames to send; call `end`
 * when the upstream closes to get the closing frames (finish reason if missing, usage chunk, `[DONE]`).
 */
export function createMessagesToChatStreamTranslator(options: ChatChunkWriterOptions) {
  const reader = createAnthropicStreamReader();
  const writer = createChatChunkWriter(options);
  return {
    push(anthropicEventData: unknown): string[] {
      return reader.push(anthropicEventData).flatMap((event) => writer.push(event));
    },
    end(): string[] {
      return writer.end();
    },
    /** The upstream's final usage (canonical: input counts the whole prompt), for metering. */
    usage: writer.usage,
  };
}
