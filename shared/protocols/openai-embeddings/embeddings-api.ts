import { readChatUsage } from '../openai-chat/chat-usage.ts';
import type { EndpointApi } from '../api-bridge.ts';
import { nativeJsonRequest } from '../native-json-request.ts';

/**
 * OpenAI's embeddings API (`POST /embeddings`), native: the answer (float arrays or base64 strings, as the
 * client asked) reaches it as the provider sent it; `usage.prompt_tokens` is what is billed.
 */
export const embeddingsApi: EndpointApi = {
  native: true,
  request: (body, upstreamModel) => nativeJsonRequest('/embeddings', body, upstreamModel),
  readResponse: (payload) => ({
    id: '',
    model: typeof payload.model === 'string' ? payload.model : '',
    content: [],
    finish: 'stop',
    ...withUsage(readChatUsage(payload.usage)),
  }),
};

function withUsage<T>(usage: T | undefined): { usage?: T } {
  return usage ? { usage } : {};
}
