import { z } from 'zod';
import { GatewayError } from '../../core/errors.ts';

/**
 * The fields of a chat completion request the gateway reads. Everything else passes to the upstream
 * untouched, so new OpenAI parameters work without a gateway release.
 */
export const chatCompletionRequestSchema = z.looseObject({
  model: z.string().min(1),
  messages: z.array(z.unknown()),
  stream: z.boolean().nullish(),
  stream_options: z.looseObject({ include_usage: z.boolean().nullish() }).nullish(),
  /** Routing-only fields (spec 2.2): consumed by the gateway, never sent upstream. */
  models: z.array(z.string().min(1)).optional(),
  route: z.literal('fallback').optional(),
  provider: z.record(z.string(), z.unknown()).nullish(),
});
export type ChatCompletionRequest = z.infer<typeof chatCompletionRequestSchema>;

export const routingOnlyFields = ['models', 'route', 'provider'] as const;

/** Parses the client's body, turning every defect into a 400 that names the field. */
export function parseChatCompletionRequest(body: string): ChatCompletionRequest {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw new GatewayError('invalid_request', 'The request body is not valid JSON.', { code: 'invalid_json' });
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new GatewayError('invalid_request', 'The request body must be a JSON object.', { code: 'invalid_json' });
  }
  if (!('model' in json) || json.model === undefined || json.model === null || json.model === '') {
    throw new GatewayError('invalid_request', 'The request must name a model: "model" is required.', {
      code: 'missing_model',
      param: 'model',
    });
  }
  const parsed = chatCompletionRequestSchema.safeParse(json);
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

/**
 * The body the upstream receives: its own model id, routing-only fields removed, and, for streams, a
 * request for usage (the gateway meters every stream; what the client did not ask for it does not see).
 */
export function buildUpstreamChatBody(request: ChatCompletionRequest, upstreamModel: string): string {
  const upstream: Record<string, unknown> = { ...request, model: upstreamModel };
  for (const field of routingOnlyFields) delete upstream[field];
  if (request.stream === true) upstream.stream_options = { ...request.stream_options, include_usage: true };
  return JSON.stringify(upstream);
}

export function clientAskedForStreamUsage(request: ChatCompletionRequest): boolean {
  return request.stream_options?.include_usage === true;
}
