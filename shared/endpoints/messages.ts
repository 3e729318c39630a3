import { GatewayError } from '../core/errors.ts';
import { jsonBody, type GenerationEndpoint } from '../pipeline/generation-endpoint.ts';
import type { RequestBodyJson } from '../protocols/parse-model-request.ts';
import { anthropicEndUser } from '../protocols/end-user-fields.ts';
import { anthropicMessagesProtocol } from '../protocols/anthropic-messages/anthropic-messages-protocol.ts';
import { messagesPromptText } from '../protocols/anthropic-messages/count-tokens.ts';
import { parseMessagesRequest, type MessagesRequest } from '../protocols/anthropic-messages/messages-request.ts';
import { webSearchesBound, withWebSearchUsesLimited } from '../protocols/web-search-tools.ts';

/**
 * POST /v1/messages, Anthropic's Messages protocol: native to Anthropic-protocol providers (the event bytes
 * back untouched: thinking, signatures, server tools, unknown events), translated for the others.
 */
export const messagesEndpoint: GenerationEndpoint<MessagesRequest> = {
  name: 'messages',
  clientProtocol: anthropicMessagesProtocol,
  modelKinds: ['chat'],
  parse: jsonBody(parseMessagesCreate),
  endUser: anthropicEndUser,
  promptText: messagesPromptText,
  maxOutputTokens: (request) => (typeof request.max_tokens === 'number' && request.max_tokens > 0 ? request.max_tokens : undefined),
  // Anthropic bills its web search tool per search: a prepaid balance reserves the most it can run.
  unitsBound: (request) => webSearchesBound(request.tools) ?? {},
  withWebSearchesLimited: (body) => {
    const tools = withWebSearchUsesLimited(body.tools);
    return tools === body.tools ? body : { ...body, tools };
  },
};

/**
 * A Messages request to answer: `max_tokens` is required, as Anthropic requires it ("max_tokens: Field
 * required"), whatever provider serves the model: a body a translated target would take would be refused
 * natively, and a client would learn only on another model that it sends it wrong. (count_tokens takes none.)
 */
function parseMessagesCreate(body: RequestBodyJson): MessagesRequest {
  const request = parseMessagesRequest(body);
  if (request.max_tokens === undefined || request.max_tokens === null) {
    throw new GatewayError('invalid_request', 'max_tokens: Field required', { code: 'missing_required_parameter', param: 'max_tokens' });
  }
  return request;
}
