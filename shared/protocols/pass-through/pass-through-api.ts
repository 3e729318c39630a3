import type { CanonicalEvent } from '../../canonical/canonical-events.ts';
import { readEventData } from '../../canonical/read-payload.ts';
import { asJsonObject } from '../../core/json-object.ts';
import { ZERO_USAGE, type TokenUsage } from '../../core/token-usage.ts';
import { serializeMultipartForm, withFormValue } from '../../http/multipart-form.ts';
import type { EndpointApi } from '../api-bridge.ts';
import type { UpstreamRequest } from '../bridge.ts';
import { readChatUsage } from '../openai-chat/chat-usage.ts';
import { readAudioTokenUsage } from '../openai-audio/audio-usage.ts';
import { presentWithUsageCost } from '../usage-cost.ts';
import type { PassThroughRequest } from './pass-through-request.ts';

/**
 * Any other route of a provider's API, passed through: the client's method, path, query string and body
 * (with the provider's model id when it names a model), the provider's status, content type and body back
 * (JSON, events or bytes). Metered by the request, and by the usage the provider reports, if it does
 * (chat-style `prompt_tokens` or Responses-style `input_tokens`, at the top or under `response`) in answer
 * to a request that makes something: not a GET, HEAD or DELETE, nor a POST answered with an object that
 * outlives it (isKeptObject).
 */
export function passThroughApi(request: PassThroughRequest): EndpointApi {
  const readsOnly = METHODS_THAT_READ.has(request.method.toUpperCase());
  // The usage in the answer is the object's, not this request's: billed as a request, and shown as the provider keeps it.
  const answersKeptObject = (payload: Record<string, unknown>) => readsOnly || isKeptObject(payload, request.upstreamPath);
  const answerUsage = (payload: Record<string, unknown>) => (answersKeptObject(payload) ? undefined : usageReportedIn(payload));
  // Events are the work of this request as it happens (a run streamed to its end), billed by their usage unless it reads.
  const eventUsage = (payload: Record<string, unknown>) => (readsOnly ? undefined : usageReportedIn(payload));
  return {
    native: true,
    request: (_body, upstreamModel) => upstreamRequest(request, upstreamModel),
    answerKind(response, streamed) {
      const type = response.headers.get('content-type') ?? '';
      if (type.startsWith('text/event-stream')) return streamed || request.method === 'GET' ? 'stream' : 'bytes';
      return /json/.test(type) && response.status !== 204 ? 'json' : 'bytes';
    },
    // What the provider reports, and nothing estimated: a pass-through's body is no prompt.
    readResponse: (payload) => ({ id: typeof payload.id === 'string' ? payload.id : '', model: '', content: [], finish: 'stop', usage: answerUsage(payload) ?? ZERO_USAGE }),
    createStreamReader: () => ({
      push(data) {
        const event = asJsonObject(readEventData(data));
        const usage = event ? eventUsage(event) : undefined;
        const events: CanonicalEvent[] = usage ? [{ type: 'usage', usage }] : [];
        return events;
      },
    }),
    createBytesMeter: () => ({ push: () => undefined, end: () => ({ usage: ZERO_USAGE }) }),
    // An object as the provider keeps it: the usage there is not this request's to price.
    presentResponse: (text, payload, answer, presentation) => (answersKeptObject(payload) ? text : presentWithUsageCost(text, payload, answer.usage, presentation)),
  };
}

function upstreamRequest(request: PassThroughRequest, upstreamModel: string): UpstreamRequest {
  const { method, upstreamPath: path, forwardedHeaders, payload } = request;
  const named = request.model !== '';
  const base = { path, method, headers: { ...forwardedHeaders, accept: request.stream ? 'text/event-stream' : '*/*' } };
  switch (payload.kind) {
    case 'json':
      return { ...base, headers: { ...base.headers, 'content-type': 'application/json' }, body: JSON.stringify(named ? { ...payload.json, model: upstreamModel } : payload.json) };
    case 'form': {
      const form = serializeMultipartForm(named ? withFormValue(payload.form, 'model', upstreamModel) : payload.form);
      return { ...base, headers: { ...base.headers, 'content-type': form.contentType }, body: form.body };
    }
    case 'bytes':
      return { ...base, headers: { ...base.headers, ...(payload.contentType ? { 'content-type': payload.contentType } : {}) }, body: payload.bytes };
    case 'none':
      return base;
  }
}

/**
 * Methods that only read (or remove) what earlier requests made: the usage in their answer is the object's
 * (a batch's, an Assistants run's, all its tokens so far), not this request's, and reading it would bill it
 * again at every poll. Such a request is billed as a request only.
 */
const METHODS_THAT_READ = new Set(['GET', 'HEAD', 'DELETE']);

/**
 * Objects a provider keeps and clients poll, whose `usage` is their running total: a batch's, an Assistants
 * run's or run step's (a POST answers one when it creates, cancels or continues it).
 */
const KEPT_OBJECTS = new Set(['batch', 'thread.run', 'thread.run.step']);

/**
 * Whether a JSON answer is an object that outlives the request rather than something the request made:
 * one the provider keeps and clients poll (KEPT_OBJECTS), or one the request's path names by its id
 * (`POST /batches/{id}/cancel`, `POST /threads/{thread}/runs/{id}/cancel`, `POST /chat/completions/{id}`
 * that updates a stored completion's metadata). A generation's id is new: no path names it.
 */
function isKeptObject(payload: Record<string, unknown>, upstreamPath: string): boolean {
  if (typeof payload.object === 'string' && KEPT_OBJECTS.has(payload.object)) return true;
  const { id } = payload;
  return typeof id === 'string' && id !== '' && pathSegments(upstreamPath).includes(id);
}

function pathSegments(upstreamPath: string): string[] {
  return (upstreamPath.split('?')[0] ?? '').split('/').map((segment) => {
    try {
      return decodeURIComponent(segment);
    } catch {
      return segment;
    }
  });
}

/** The usage a provider reports in an answer or event, in whichever of OpenAI's shapes (none: undefined). */
function usageReportedIn(payload: Record<string, unknown>): TokenUsage | undefined {
  const usage = asJsonObject(payload.usage ?? asJsonObject(payload.response)?.usage);
  if (!usage) return undefined;
  if ('prompt_tokens' in usage) return readChatUsage(usage);
  return 'input_tokens' in usage ? readAudioTokenUsage(usage) : undefined;
}
