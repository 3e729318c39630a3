import type { EndpointApi } from '../api-bridge.ts';
import { presentChatCompletion } from '../openai-chat/chat-native-response.ts';
import { createChatPassThrough } from '../openai-chat/chat-pass-through.ts';
import { nativeJsonRequest } from '../native-json-request.ts';
import { createCompletionAnswerStream } from './completions-answer-stream.ts';
import type { CompletionsRequest } from './completions-request.ts';
import { createCompletionsStreamReader, readCompletion } from './completions-reader.ts';

/**
 * OpenAI's legacy completions API (`POST /completions`), native. Metered like chat: a stream always asks
 * the provider for usage, which the client sees only if it asked (or with `cost` when injection is on).
 */
export const completionsApi: EndpointApi = {
  native: true,
  request(body, upstreamModel) {
    const { stream, stream_options: streamOptions } = body as CompletionsRequest;
    return nativeJsonRequest('/completions', body, upstreamModel, stream === true ? { stream_options: { ...streamOptions, include_usage: true } } : {});
  },
  readResponse: readCompletion,
  presentResponse: (text, payload, answer, presentation) => presentChatCompletion(text, payload, answer.usage, presentation),
  createStreamReader: createCompletionsStreamReader,
  createPassThrough: (presentation) => createChatPassThrough(presentation, 'text_completion'),
  // A provider that ignored `stream: true` answered whole: the client still gets the stream its SDK reads.
  createAnswerStream: createCompletionAnswerStream,
  clientAskedForStreamUsage: (body) => (body as CompletionsRequest).stream_options?.include_usage === true,
};
