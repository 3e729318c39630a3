import type { CanonicalResponse } from '../../canonical/canonical-response.ts';
import type { CanonicalEvent } from '../../canonical/canonical-events.ts';
import { ZERO_USAGE, type TokenUsage } from '../../core/token-usage.ts';
import { readEventData } from '../../canonical/read-payload.ts';
import { asJsonObject } from '../../core/json-object.ts';
import type { EndpointApi } from '../api-bridge.ts';
import { formUpstreamRequest } from '../form-request.ts';
import { nativeJsonRequest } from '../native-json-request.ts';
import type { StreamReader } from '../wire-protocol.ts';
import { readImagesUsage } from './images-usage.ts';

/**
 * OpenAI's image APIs, native: `POST /images/generations` (JSON) and `POST /images/edits` (an upload of
 * the image or images and an optional mask). Images come back as URLs or base64 as the client asked. A
 * gpt-image answer reports tokens, which are priced; one without (DALL·E) is priced per image made.
 */
export function imagesApi(operation: 'generations' | 'edits'): EndpointApi {
  const path = `/images/${operation}`;
  return {
    native: true,
    request: (body, upstreamModel) => (operation === 'edits' ? formUpstreamRequest(path, body, upstreamModel) : nativeJsonRequest(path, body, upstreamModel)),
    readResponse: readImagesAnswer,
    createStreamReader: createImagesStreamReader,
  };
}

function readImagesAnswer(payload: Record<string, unknown>): CanonicalResponse {
  const usage = readImagesUsage(payload.usage);
  const made = Array.isArray(payload.data) ? payload.data.length : 0;
  return { id: '', model: '', content: [], finish: 'stop', ...(usage ? { usage } : { units: { images: made } }) };
}

/**
 * Reads an image stream (`stream: true` on gpt-image models): partial images, then one
 * `image_generation.completed` (or `image_edit.completed`) per image with its usage; the totals so far
 * after each completed image, priced per image when it reports no tokens.
 */
function createImagesStreamReader(): StreamReader {
  let tokens: TokenUsage | undefined;
  let imagesWithoutTokens = 0;
  return {
    push(data) {
      const event = asJsonObject(readEventData(data));
      if (!event || typeof event.type !== 'string' || !event.type.endsWith('.completed')) return [];
      const usage = readImagesUsage(event.usage);
      if (usage) tokens = addTokens(tokens, usage);
      else imagesWithoutTokens += 1;
      const total: TokenUsage = { ...(tokens ?? ZERO_USAGE), ...(imagesWithoutTokens > 0 ? { units: { images: imagesWithoutTokens } } : {}) };
      const events: CanonicalEvent[] = [{ type: 'usage', usage: total }];
      return events;
    },
  };
}

function addTokens(sum: TokenUsage | undefined, usage: TokenUsage): TokenUsage {
  if (!sum) return usage;
  return {
    promptTokens: sum.promptTokens + usage.promptTokens,
    completionTokens: sum.completionTokens + usage.completionTokens,
    cachedTokens: sum.cachedTokens + usage.cachedTokens,
    reasoningTokens: 0,
    estimated: false,
  };
}
