import type { RouteTarget } from '../core/plan-route.ts';
import type { GatewayRequest } from '../http/gateway-http.ts';
import { sseEventData } from '../http/sse-event-splitter.ts';
import { buildUpstreamMessagesBody, messagesRoutingOnlyFields, type MessagesRequest } from '../protocols/anthropic-messages/messages-request.ts';
import { convertChatResponseToMessages } from '../canonical/chat-to-messages-response.ts';
import { createChatToMessagesStreamTranslator } from '../canonical/chat-to-messages-stream.ts';
import { convertMessagesRequestToChat } from '../canonical/messages-to-chat-request.ts';
import type { UpstreamRequest } from '../pipeline/failover.ts';
import { openAiUpstreamHeaders } from './chat-upstream.ts';
import { anthropicUpstreamHeaders } from './messages-upstream.ts';

/**
 * What a Messages request becomes for one target: forwarded natively to an Anthropic-protocol provider, or
 * translated into a chat completion request for an OpenAI-compatible one (Claude Code on another model).
 */
export function messagesRequestFor(messagesRequest: MessagesRequest, clientRequest: GatewayRequest) {
  const streaming = messagesRequest.stream === true;
  return (target: RouteTarget): UpstreamRequest => {
    if (target.provider.protocol === 'anthropic') {
      return { path: '/messages', headers: anthropicUpstreamHeaders(clientRequest, streaming), body: buildUpstreamMessagesBody(messagesRequest, target.model.model) };
    }
    const withoutRouting: Record<string, unknown> = { ...messagesRequest };
    for (const field of messagesRoutingOnlyFields) delete withoutRouting[field];
    const { body } = convertMessagesRequestToChat(withoutRouting, { upstreamModel: target.model.model });
    return { path: '/chat/completions', headers: openAiUpstreamHeaders(streaming), body: JSON.stringify(body) };
  };
}

/** Chat chunks → well-formed Anthropic events, fed to the native meter like any Anthropic stream. */
export function chatToMessagesFrames(model: string, messageId: string, inputTokensEstimate: number) {
  const translator = createChatToMessagesStreamTranslator({ model, messageId, inputTokensEstimate });
  return {
    push: (event: string) => {
      const data = sseEventData(event);
      return data === undefined ? [] : translator.push(data);
    },
    end: () => translator.end(),
  };
}

/** A chat completion answer as a Messages response (a body that is not JSON passes as it is). */
export function translateChatAnswer(text: string, model: string, messageId: string): string {
  try {
    return JSON.stringify(convertChatResponseToMessages(JSON.parse(text), { model, messageId }));
  } catch {
    return text;
  }
}
