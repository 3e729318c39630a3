import type * as z from 'zod';
import { GatewayError } from '../core/errors.ts';
import { exceedsJsonDepth, MAX_JSON_DEPTH } from '../core/json-depth.ts';
import { ParsedJsonBody, parseRequestJson } from '../http/gateway-http.ts';

/** A request body as an endpoint's parser takes it: text, or the request's body already parsed (parsedJsonBody). */
export type RequestBodyJson = string | ParsedJsonBody;

/**
 * Parses a generation request's JSON body against its protocol's schema, turning every defect into a
 * 400 that names the field: not JSON, not an object, no `model`, a required field missing (in OpenAI's
 * words, "Missing required parameter: 'voice'."), or a field of the wrong shape. A body with `models` and
 * no `model` (OpenRouter's form) names its model first: the rest are its fallbacks. An API whose model is
 * optional (moderations) gives its default, resolved through the allowlist as every name is.
 */
export function parseModelRequest<Schema extends z.ZodType>(body: RequestBodyJson, schema: Schema, defaultModel?: string): z.infer<Schema> {
  const json = body instanceof ParsedJsonBody ? body.value : parseRequestJson(body);
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new GatewayError('invalid_request', 'The request body must be a JSON object.', { code: 'invalid_json' });
  }
  if (exceedsJsonDepth(json)) {
    throw new GatewayError('invalid_request', `The request body nests deeper than the ${MAX_JSON_DEPTH} levels the gateway accepts.`, { code: 'json_too_deep' });
  }
  const parsed = schema.safeParse(withModelNamed(json as Record<string, unknown>, defaultModel));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.join('.') || 'body';
    const missing = issue !== undefined && issue.path.length > 0 && valueAt(json, issue.path) === undefined;
    const message = missing ? `Missing required parameter: '${field}'.` : `Invalid field "${field}": ${issue?.message ?? 'invalid value'}.`;
    throw new GatewayError('invalid_request', message, {
      code: 'invalid_request_body',
      param: field,
    });
  }
  return parsed.data;
}

/**
 * The body with its `model`: as sent, or, when it names none, the first of `models`. `models` stays as
 * sent (its fields are validated where the client put them): the first is the model, tried once, and the
 * rest are fallbacks, tried as every `models` list is (with `route: "fallback"` or the project's failover).
 */
function withModelNamed(json: Record<string, unknown>, defaultModel: string | undefined): Record<string, unknown> {
  if (json.model !== undefined && json.model !== null && json.model !== '') return json;
  const first: unknown = Array.isArray(json.models) ? json.models[0] : undefined;
  if ((typeof first !== 'string' || first === '') && defaultModel !== undefined) return { ...json, model: defaultModel };
  if (typeof first !== 'string' || first === '') {
    throw new GatewayError('invalid_request', 'The request must name a model: "model" is required (or "models", whose first entry is the model).', {
      code: 'missing_model',
      param: 'model',
    });
  }
  return { ...json, model: first };
}

/** The value at a schema issue's path in the body, undefined where the body has none. */
function valueAt(json: object, path: readonly PropertyKey[]): unknown {
  let value: unknown = json;
  for (const key of path) {
    if (typeof value !== 'object' || value === null || typeof key === 'symbol') return undefined;
    value = (value as Record<string | number, unknown>)[key];
  }
  return value;
}
