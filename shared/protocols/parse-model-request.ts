import type { z } from 'zod';
import { GatewayError } from '../core/errors.ts';
import { exceedsJsonDepth, MAX_JSON_DEPTH } from '../core/json-depth.ts';
import { ParsedJsonBody, parseRequestJson } from '../http/gateway-http.ts';

/** A request body as an endpoint's parser takes it: text, or the request's body already parsed (parsedJsonBody). */
export type RequestBodyJson = string | ParsedJsonBody;

/**
 * Parses a generation request's JSON body against its protocol's schema, turning every defect into a
 * 400 that names the field: not JSON, not an object, no `model`, or a field of the wrong shape.
 */
export function parseModelRequest<Schema extends z.ZodType>(body: RequestBodyJson, schema: Schema): z.infer<Schema> {
  const json = body instanceof ParsedJsonBody ? body.value : parseRequestJson(body);
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new GatewayError('invalid_request', 'The request body must be a JSON object.', { code: 'invalid_json' });
  }
  if (exceedsJsonDepth(json)) {
    throw new GatewayError('invalid_request', `The request body nests deeper than the ${MAX_JSON_DEPTH} levels the gateway accepts.`, { code: 'json_too_deep' });
  }
  if (!('model' in json) || json.model === undefined || json.model === null || json.model === '') {
    throw new GatewayError('invalid_request', 'The request must name a model: "model" is required.', { code: 'missing_model', param: 'model' });
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.join('.') || 'body';
    throw new GatewayError('invalid_request', `Invalid field "${field}": ${issue?.message ?? 'invalid value'}.`, {
      code: 'invalid_request_body',
      param: field,
    });
  }
  return parsed.data;
}
