import type { EndpointApi } from '../api-bridge.ts';
import { buildUpstreamResponsesBody } from './responses-request.ts';
import { readResponsesUsage } from './responses-usage.ts';

/**
 * OpenAI's compaction (`POST /responses/compact`), native only: the compacted conversation is encrypted
 * content only the provider that made it can read, so it reaches the client as the provider sent it (with
 * `usage.cost` when injected). The body goes as a response's does (reasoning carried from Claude left
 * out, which OpenAI could not decrypt); the usage is a response's, billed as such.
 */
export const responsesCompactApi: EndpointApi = {
  native: true,
  request: (body, upstreamModel) => ({
    path: '/responses/compact',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: buildUpstreamResponsesBody(body, upstreamModel),
  }),
  // A compaction is answered whole: there is no stream of it.
  answerKind: () => 'json',
  readResponse: (payload) => {
    const usage = readResponsesUsage(payload.usage);
    return {
      id: typeof payload.id === 'string' ? payload.id : '',
      model: typeof payload.model === 'string' ? payload.model : '',
      content: [],
      finish: 'stop',
      ...(usage ? { usage } : {}),
    };
  },
};
