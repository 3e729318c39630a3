import { ZERO_USAGE } from '../../core/token-usage.ts';
import type { EndpointApi } from '../api-bridge.ts';
import { formUpstreamRequest } from '../form-request.ts';
import { nativeJsonRequest } from '../native-json-request.ts';
import type { VideoCreateRequest } from './videos-request.ts';

/**
 * OpenAI's video API (`POST /videos`), native: the job is created as the client asked (JSON or a form with
 * a reference image) and its video object comes back. Nothing is billed but the request until the job
 * completes: its seconds are recorded then (bill-finished-video.ts).
 */
export function videosApi(request: VideoCreateRequest): EndpointApi {
  return {
    native: true,
    request: (body, upstreamModel) =>
      request.sent.kind === 'form' ? formUpstreamRequest('/videos', { ...body, form: request.sent.form }, upstreamModel) : nativeJsonRequest('/videos', request.sent.json, upstreamModel),
    readResponse: (payload) => ({ id: typeof payload.id === 'string' ? payload.id : '', model: '', content: [], finish: 'stop', usage: ZERO_USAGE }),
  };
}
