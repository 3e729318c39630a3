import type { GatewayRequest } from '../../http/gateway-http.ts';
import { createSseDecoder } from '../../transport/stream-decoder.ts';
import { presentWithUsageCost } from '../usage-cost.ts';
import type { WireProtocol } from '../wire-protocol.ts';
import { anthropicStreamErrorFrame, readAnthropicErrorWords, relayAnthropicUpstreamError, renderAnthropicError, writeAnthropicErrorBody } from './anthropic-errors.ts';
import { createAnthropicStreamReader } from './anthropic-stream-reader.ts';
import { createMessagesEventWriter } from './messages-event-writer.ts';
import { createMessagesPassThrough } from './messages-pass-through.ts';
import { buildUpstreamMessagesBody, type MessagesRequest } from './messages-request.ts';
import { readMessagesRequest } from './messages-request-reader.ts';
import { writeMessagesRequest } from './messages-request-writer.ts';
import { isAnthropicMessage, readMessagesResponse } from './messages-response-reader.ts';
import { messagesAnswerId, writeMessagesResponse } from './messages-response-writer.ts';
import { renderAnthropicUsage } from './messages-usage.ts';

export const DEFAULT_ANTHROPIC_VERSION = '2023-06-01';

/**
 * The headers of Anthropic's protocol: the client's `anthropic-version` and `anthropic-beta` as received
 * (the spec's generic `upstream-version` / `upstream-beta` names are accepted too), else the default version.
 * Betas sent under both names are all kept, each once.
 */
export function anthropicProtocolHeaders(client: GatewayRequest['headers'], streaming: boolean): Record<string, string> {
  const version = client['anthropic-version'] ?? client['upstream-version'] ?? DEFAULT_ANTHROPIC_VERSION;
  const beta = joinBetas(client['anthropic-beta'], client['upstream-beta']);
  return {
    'content-type': 'application/json',
    accept: streaming ? 'text/event-stream' : 'application/json',
    'anthropic-version': version,
    ...(beta ? { 'anthropic-beta': beta } : {}),
  };
}

function joinBetas(...headers: (string | undefined)[]): string | undefined {
  const betas = new Set(headers.flatMap((header) => header?.split(',') ?? []).map((beta) => beta.trim()).filter(Boolean));
  return betas.size > 0 ? [...betas].join(',') : undefined;
}

/** Anthropic's Messages protocol (`POST /messages`): Claude Code's protocol, and Anthropic's API. */
export const anthropicMessagesProtocol: WireProtocol = {
  id: 'anthropic-messages',

  upstreamPath: () => '/messages',
  upstreamHeaders: anthropicProtocolHeaders,
  native: { requestBody: (body, upstreamModel) => buildUpstreamMessagesBody(body as MessagesRequest, upstreamModel) },
  writeRequest: writeMessagesRequest,
  isCompleteAnswer: isAnthropicMessage,
  readResponse: readMessagesResponse,
  createStreamDecoder: createSseDecoder,
  upstreamStreamContentType: 'text/event-stream',
  createStreamReader: createAnthropicStreamReader,
  readErrorBody: (answer) => readAnthropicErrorWords(answer.body),

  readRequest: readMessagesRequest,
  // Anthropic streams always carry usage.
  clientAskedForStreamUsage: () => true,
  writeResponse: writeMessagesResponse,
  answerId: messagesAnswerId,
  presentNativeResponse: (text, payload, usage, presentation) => presentWithUsageCost(text, payload, usage, presentation, renderAnthropicUsage),
  createStreamWriter(presentation) {
    const writer = createMessagesEventWriter({
      model: presentation.model,
      messageId: messagesAnswerId(undefined, presentation.responseId),
      inputTokensEstimate: presentation.promptTokensEstimate,
      ...(presentation.injectCost ? { priceUsd: presentation.priceUsd } : {}),
    });
    return {
      push: (_event, canonical) => canonical.flatMap((item) => writer.push(item)).join(''),
      end: async () => writer.end(presentation.injectCost ? await presentation.finalUsage() : undefined).join(''),
    };
  },
  createPassThrough: createMessagesPassThrough,
  writeErrorBody: writeAnthropicErrorBody,
  relayUpstreamError: relayAnthropicUpstreamError,
  relaysFailedAttempt: true,
  renderError: renderAnthropicError,
  streamErrorFrame: (error) => anthropicStreamErrorFrame(error),
  streamContentType: 'text/event-stream',
};
