import type { RouteTarget } from '../core/plan-route.ts';
import type { GatewayRequest } from '../http/gateway-http.ts';
import { buildUpstreamChatBody, routingOnlyFields, type ChatCompletionRequest } from '../protocols/openai-chat/chat-request.ts';
import { convertChatRequestToMessages } from '../canonical/chat-to-messages-request.ts';
import { createMessagesToChatStreamTranslator } from '../canonical/messages-to-chat-stream.ts';
import { sseEventData } from '../http/sse-event-splitter.ts';
import type { UpstreamRequest } from '../pipeline/failover.ts';
import { anthropicUpstreamHeaders } from './messages-upstream.ts';

/**
 * What a chat completion request becomes for one target: the body as it is for an OpenAI-compatible
 * provider (native first), or translated into a Messages request for an Anthropic-protocol one.
 */
export function chatRequestFor(chatRequest: ChatCompletionRequest, clientRequest: GatewayRequest) {
  const streaming = chatRequest.stream === true;
  return (target: RouteTarget): UpstreamRequest => {
    if (target.provider.protocol === 'openai') {
      return { path: '/chat/completions', headers: openAiUpstreamHeaders(streaming), body: buildUpstreamChatBody(chatRequest, target.model.model) };
    }
    const withoutRouting: Record<string, unknown> = { ...chatRequest };
    for (const field of routingOnlyFields) delete withoutRouting[field];
    const { body } = convertChatRequestToMessages(withoutRouting, { upstreamModel: target.model.model });
    return { path: '/messages', headers: anthropicUpstreamHeaders(clientRequest, streaming), body: JSON.stringify(body) };
  };
}

/** The headers an OpenAI-compatible upstream receives: its own key as the bearer token. */
export function openAiUpstreamHeaders(streaming: boolean) {
  return (apiKey: string | undefined): Record<string, string> => ({
    'content-type': 'application/json',
    accept: streaming ? 'text/event-stream' : 'application/json',
    ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
  });
}

/** Anthropic stream events → chat chunks; usage always included, so the chat meter sees it (and hides it if unasked). */
export function messagesToChatFrames(model: string, created: number) {
  const translator = createMessagesToChatStreamTranslator({ model, includeUsage: true, created });
  return {
    push: (event: string) => {
      const data = sseEventData(event);
      return data === undefined ? [] : translator.push(data);
    },
    end: () => translator.end(),
  };
}
