import type * as z from 'zod';
import { GatewayError } from '../core/errors.ts';

/**
 * A stream event's data as a value: parsed JSON when given the raw `data:` text, as is otherwise.
 * Undefined for text that is not JSON (comments, `[DONE]`).
 */
export function readEventData(data: unknown): unknown {
  if (typeof data !== 'string') return data;
  // OpenAI's last event: known not to be JSON, and finding that out by parsing throws (tens of µs a stream).
  if (data === '[DONE]') return undefined;
  try {
    return JSON.parse(data) as unknown;
  } catch {
    return undefined;
  }
}

/** A client request body against a translation schema; a defect is a 400 that names the field. */
export function parseRequestBody<Schema extends z.ZodType>(schema: Schema, body: unknown): z.infer<Schema> {
  const parsed = schema.safeParse(readEventData(body));
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = issue?.path.join('.') || 'body';
  throw new GatewayError('invalid_request', `Invalid field "${field}": ${issue?.message ?? 'invalid value'}.`, {
    code: 'invalid_request_body',
    param: field,
  });
}

/** A provider answer or stream event against a lenient schema, or undefined when it does not fit at all. */
export function parseProviderPayload<Schema extends z.ZodType>(schema: Schema, payload: unknown): z.infer<Schema> | undefined {
  const parsed = schema.safeParse(readEventData(payload));
  return parsed.success ? parsed.data : undefined;
}
