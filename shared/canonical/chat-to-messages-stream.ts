import { createChatStreamReader } from '../protocols/openai-chat/chat-stream-reader.ts';
import { createMessagesEventWriter, type MessagesEventWriterOptions } from '../protocols/anthropic-messages/messages-event-writer.ts';

/**
 * Translates an OpenAI chat completion stream into an Anthropic Messages stream (for an Anthropic client,
 * e.g. Claude Code, on an OpenAI-compatible model). A pure state machine: feed each upstream SSE event's
 * data (a parsed chunk or its raw text) to `push`, which returns the Anthropic SSE frames to send. The
 * closing message_delta and message_stop come when `[DONE]` is pushed or `end` is called, whichever is
 * first (both are safe to call); `end` also stops any block an abruptly ended stream left open.
 */
export function createChatToMessagesStreamTranslator(options: MessagesEventWriterOptions) {
  const reader = createChatStreamReader();
  const writer = createMessagesEventWriter(options);
  return {
    push(chatChunk: unknown): string[] {
      if (typeof chatChunk === 'string' && chatChunk.trim() === '[DONE]') return writer.end();
      return reader.push(chatChunk).flatMap((event) => writer.push(event));
    },
    end(): string[] {
      return writer.end();
    },
    /** The upstream's final usage (canonical: input counts the whole prompt), for metering. */
    usage: writer.usage,
  };
}
