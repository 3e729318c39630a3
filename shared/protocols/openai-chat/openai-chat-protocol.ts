import { createSseDecoder } from '../../transport/stream-decoder.ts';
import type { WireProtocol } from '../wire-protocol.ts';
import { createChatChunkWriter } from './chat-chunk-writer.ts';
import { presentChatCompletion } from './chat-native-response.ts';
import { createChatPassThrough } from './chat-pass-through.ts';
import { buildUpstreamChatBody, chatBodyUsesCustomTools, reasoningExcluded, reasoningFieldFor, type ChatCompletionRequest } from './chat-request.ts';
import { readChatRequest } from './chat-request-reader.ts';
import { writeChatRequest } from './chat-request-writer.ts';
import { isChatCompletion, readChatResponse } from './chat-response-reader.ts';
import { chatAnswerId, writeChatResponse } from './chat-response-writer.ts';
import { createChatStreamReader } from './chat-stream-reader.ts';
import { openAiStreamErrorFrame, readOpenAiErrorWords, relayOpenAiUpstreamError, renderOpenAiError, writeOpenAiErrorBody } from './openai-errors.ts';

/** OpenAI's Chat Completions protocol (`POST /chat/completions`), spoken by OpenAI and most compatible providers. */
export const openAiChatProtocol: WireProtocol = {
  id: 'openai-chat',

  upstreamPath: () => '/chat/completions',
  upstreamHeaders: (_client, streaming) => ({ 'content-type': 'application/json', accept: streaming ? 'text/event-stream' : 'application/json' }),
  native: {
    requestBody: (body, upstreamModel, _client, features) => buildUpstreamChatBody(body as ChatCompletionRequest, upstreamModel, features),
    usesCustomTools: chatBodyUsesCustomTools,
  },
  writeRequest: writeChatRequest,
  isCompleteAnswer: isChatCompletion,
  readResponse: readChatResponse,
  createStreamDecoder: createSseDecoder,
  upstreamStreamContentType: 'text/event-stream',
  createStreamReader: createChatStreamReader,
  readErrorBody: (answer) => readOpenAiErrorWords(answer.body),

  readRequest: readChatRequest,
  clientAskedForStreamUsage: (body) => (body as ChatCompletionRequest).stream_options?.include_usage === true,
  writeResponse: writeChatResponse,
  answerId: chatAnswerId,
  presentNativeResponse: presentChatCompletion,
  createStreamWriter(presentation) {
    const writer = createChatChunkWriter({
      model: presentation.model,
      created: presentation.created,
      fallbackId: chatAnswerId(undefined, presentation.responseId),
      includeUsage: presentation.showUsage || presentation.injectCost,
      ...(presentation.injectCost ? { priceUsd: presentation.priceUsd } : {}),
      hideReasoning: reasoningExcluded(presentation.clientBody),
      reasoningField: reasoningFieldFor(presentation.clientBody),
    });
    return {
      push: (_event, canonical) => canonical.flatMap((item) => writer.push(item)).join(''),
      end: async () => writer.end(presentation.showUsage || presentation.injectCost ? await presentation.finalUsage() : undefined).join(''),
    };
  },
  createPassThrough: createChatPassThrough,
  writeErrorBody: writeOpenAiErrorBody,
  relayUpstreamError: relayOpenAiUpstreamError,
  relaysFailedAttempt: false,
  renderError: renderOpenAiError,
  streamErrorFrame: openAiStreamErrorFrame,
  streamContentType: 'text/event-stream',
};
