import type { CanonicalEvent } from '../../../shared/canonical/canonical-events.ts';
import { createCanonicalMeter } from '../../../shared/canonical/canonical-meter.ts';
import type { CanonicalRequest } from '../../../shared/canonical/canonical-request.ts';
import type { TokenUsage } from '../../../shared/core/token-usage.ts';
import { anthropicMessagesProtocol } from '../../../shared/protocols/anthropic-messages/anthropic-messages-protocol.ts';
import { createAnthropicStreamReader } from '../../../shared/protocols/anthropic-messages/anthropic-stream-reader.ts';
import { createMessagesEventWriter } from '../../../shared/protocols/anthropic-messages/messages-event-writer.ts';
import { createChatChunkWriter } from '../../../shared/protocols/openai-chat/chat-chunk-writer.ts';
import { createChatStreamReader } from '../../../shared/protocols/openai-chat/chat-stream-reader.ts';
import { openAiChatProtocol } from '../../../shared/protocols/openai-chat/openai-chat-protocol.ts';
import type { ClientProtocol, Presentation, UpstreamProtocol, WireProtocol } from '../../../shared/protocols/wire-protocol.ts';
import type { AnthropicMessagesRequestBody } from '../../../shared/protocols/anthropic-messages/anthropic-request-types.ts';
import type { ChatCompletionRequestBody, ChatToolCallOut } from '../../../shared/protocols/openai-chat/chat-request-types.ts';

/**
 * The translations between chat completions and messages, each composed the way the gateway composes
 * them: the client protocol's reader and the upstream protocol's writer around the canonical model.
 */
function translateRequest<Body>(from: WireProtocol, to: UpstreamProtocol, body: unknown, upstreamModel: string) {
  const canonical = from.readRequest(body as Record<string, unknown>);
  const translated = to.writeRequest(canonical, upstreamModel, { customTools: true, maxCompletionTokens: false, reasoningObject: false });
  return { body: translated as Body, droppedFields: canonical.dropped.list() };
}

export const convertChatRequestToMessages = (body: unknown, options: { upstreamModel: string }) =>
  translateRequest<AnthropicMessagesRequestBody>(openAiChatProtocol, anthropicMessagesProtocol, body, options.upstreamModel);

export const convertMessagesRequestToChat = (body: unknown, options: { upstreamModel: string }) =>
  translateRequest<ChatCompletionRequestBody>(anthropicMessagesProtocol, openAiChatProtocol, body, options.upstreamModel);

/** A translated Anthropic message, as the tests read it. */
interface TranslatedMessage {
  id: string;
  model: string;
  content: Array<Record<string, unknown> & { type: string }>;
  stop_reason: string;
  usage: Record<string, number>;
}

/** A translated chat completion, as the tests read it. */
interface TranslatedCompletion {
  id: string;
  model: string;
  created: number;
  choices: Array<{ message: { role: string; content: string | null; reasoning_content?: string; tool_calls?: Array<Extract<ChatToolCallOut, { type: 'function' }>>; refusal: null }; finish_reason: string }>;
  usage: Record<string, unknown>;
}

export function presentation(overrides: Partial<Presentation> = {}): Presentation {
  return {
    model: 'm',
    created: 0,
    responseId: 'gateway1',
    requestId: 'gateway-1',
    showUsage: false,
    injectCost: false,
    priceUsd: () => '0',
    finalUsage: async () => ({ promptTokens: 0, completionTokens: 0, cachedTokens: 0, reasoningTokens: 0, estimated: true }),
    promptTokensEstimate: 0,
    clientBody: {},
    ...overrides,
  };
}

export function convertChatResponseToMessages(payload: unknown, options: { model: string; responseId?: string }): TranslatedMessage {
  const canonical = openAiChatProtocol.readResponse(payload);
  return JSON.parse(anthropicMessagesProtocol.writeResponse(canonical, presentation({ model: options.model, responseId: options.responseId ?? 'gateway1' }))) as TranslatedMessage;
}

export function convertMessagesResponseToChat(payload: unknown, options: { model: string; created: number }): TranslatedCompletion {
  const canonical = anthropicMessagesProtocol.readResponse(payload);
  return JSON.parse(openAiChatProtocol.writeResponse(canonical, presentation({ model: options.model, created: options.created }))) as TranslatedCompletion;
}

/** Anthropic stream events → chat chunks; `end` takes the final usage the gateway would pass (if any). */
export function createMessagesToChatStreamTranslator(options: { model: string; includeUsage: boolean; created?: number }) {
  const reader = createAnthropicStreamReader();
  const writer = createChatChunkWriter(options);
  return {
    push: (data: unknown): string[] => reader.push(data).flatMap((event: CanonicalEvent) => writer.push(event)),
    end: (finalUsage?: TokenUsage): string[] => writer.end(finalUsage),
  };
}

/** Chat chunks → Anthropic events; `[DONE]` closes the message as the end of the upstream does. */
export function createChatToMessagesStreamTranslator(options: { model: string; messageId: string; inputTokensEstimate?: number }) {
  const reader = createChatStreamReader();
  const writer = createMessagesEventWriter(options);
  return {
    push(data: unknown): string[] {
      if (typeof data === 'string' && data.trim() === '[DONE]') return writer.end();
      return reader.push(data).flatMap((event) => writer.push(event));
    },
    end: (): string[] => writer.end(),
  };
}

/** SSE text as its frames, each ending with its blank line. */
export function splitFrames(text: string): string[] {
  return text.split(/(?<=\n\n)/).filter((frame) => frame !== '');
}

/**
 * An upstream stream's event payloads through the upstream protocol's reader, a meter and the client
 * protocol's stream writer, composed as the gateway's stream relay composes them (the final usage the
 * writer shows is the metered one). `request` is the translated request the readers may need.
 */
export async function translateStream(
  upstream: UpstreamProtocol,
  client: ClientProtocol,
  payloads: unknown[],
  options: { presentation?: Partial<Presentation>; request?: CanonicalRequest } = {},
): Promise<string[]> {
  const meter = createCanonicalMeter();
  const reader = upstream.createStreamReader(options.request);
  const estimate: TokenUsage = { promptTokens: 1, completionTokens: 1, cachedTokens: 0, reasoningTokens: 0, estimated: true };
  const writer = client.createStreamWriter(presentation({ finalUsage: async () => meter.result().usage ?? estimate, ...options.presentation }));
  let text = '';
  for (const payload of payloads) {
    const canonical = reader.push(payload);
    meter.observe(canonical);
    text += await writer.push({ raw: '', data: undefined, payload: undefined }, canonical);
  }
  text += await writer.end();
  return splitFrames(text);
}
