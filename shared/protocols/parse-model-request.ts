import type { z } from 'zod';
import { GatewayError } from '../core/errors.ts';
import { exceedsJsonDepth, MAX_JSON_DEPTH } from '../core/json-depth.ts';

/**
 * Parses a generation request's JSON body against its protocol's schema, turning every defect into a
 * 400 that names the field: not JSON, not an object, no `model`, or a field of the wrong shape.
 */
export function parseModelRequest<Schema extends z.ZodType>(body: string, schema: Schema): z.infer<Schema> {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw new GatewayError('invalid_request', 'The request body is not valid JSON.', { code: 'invalid_json' });
  }
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
