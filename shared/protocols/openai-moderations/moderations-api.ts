import type { EndpointApi } from '../api-bridge.ts';
import { nativeJsonRequest } from '../native-json-request.ts';

/**
 * OpenAI's moderations API (`POST /moderations`), native. It reports no usage: the request (and the
 * input's tokens, estimated) is what a rate card can price.
 */
export const moderationsApi: EndpointApi = {
  native: true,
  request: (body, upstreamModel) => nativeJsonRequest('/moderations', body, upstreamModel),
  readResponse: (payload) => ({
    id: typeof payload.id === 'string' ? payload.id : '',
    model: typeof payload.model === 'string' ? payload.model : '',
    content: [],
    finish: 'stop',
  }),
};
