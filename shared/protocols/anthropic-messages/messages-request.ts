import * as z from 'zod';
import { GatewayError } from '../../core/errors.ts';
import { parseModelRequest, type RequestBodyJson } from '../parse-model-request.ts';
import { PROMPT_TRANSFORM_FIELDS, promptTransformsShape, USAGE_ACCOUNTING_FIELDS, usageAccountingShape } from '../routing-fields.ts';
import type { AnthropicRequestMessage } from './anthropic-request-types.ts';
import { withoutCarriedOpenAiReasoning } from './openai-reasoning-signature.ts';
import { toolLoopLacksThinking } from './tool-loop-thinking.ts';

/** OpenRouter's `fallbacks` entries: a model name, or an object naming one. */
const fallbackEntrySchema = z.union([z.string().min(1), z.looseObject({ model: z.string().min(1) })]);

/**
 * The fields of a Messages request (and of a count_tokens request, the same body without `max_tokens`)
 * the gateway reads. Everything else passes to the upstream untouched, so new Anthropic parameters and
 * content block types work without a gateway release.
 */
export const messagesRequestSchema = z.looseObject({
  model: z.string().min(1),
  max_tokens: z.number().int().nonnegative().nullish(),
  messages: z.array(z.unknown()).min(1, 'an empty array: at least one message is required'),
  system: z.union([z.string(), z.array(z.unknown())]).nullish(),
  stream: z.boolean().nullish(),
  tools: z.array(z.unknown()).nullish(),
  tool_choice: z.looseObject({ type: z.string() }).nullish(),
  thinking: z.looseObject({ type: z.string(), budget_tokens: z.number().int().nullish() }).nullish(),
  metadata: z.looseObject({ user_id: z.string().nullish() }).nullish(),
  stop_sequences: z.array(z.string()).nullish(),
  /** Routing-only fields (spec 2.2): consumed by the gateway, never sent upstream. */
  models: z.array(z.string().min(1)).optional(),
  /** OpenRouter's alias of `models`; parsing folds it into `models`. */
  fallbacks: z.array(fallbackEntrySchema).optional(),
  route: z.literal('fallback').optional(),
  provider: z.record(z.string(), z.unknown()).nullish(),
  /** OpenRouter's usage-accounting switch, `usage: {include}`, and prompt transforms: consumed by the gateway, never sent upstream. */
  ...usageAccountingShape,
  ...promptTransformsShape,
});
export type MessagesRequest = z.infer<typeof messagesRequestSchema>;

export const messagesGatewayOnlyFields = ['models', 'fallbacks', 'route', 'provider', ...USAGE_ACCOUNTING_FIELDS, ...PROMPT_TRANSFORM_FIELDS] as const;

/**
 * Parses the client's body, turning every defect into a 400 that names the field. `fallbacks` becomes
 * `models`; a request with both is refused, since the gateway cannot tell which list the client meant.
 */
export function parseMessagesRequest(body: RequestBodyJson): MessagesRequest {
  const request = parseModelRequest(body, messagesRequestSchema);
  if (request.fallbacks === undefined) return request;
  if (request.models !== undefined) {
    throw new GatewayError('invalid_request', 'Send either "models" or its alias "fallbacks", not both.', {
      code: 'conflicting_fields',
      param: 'fallbacks',
    });
  }
  return { ...request, models: request.fallbacks.map((entry) => (typeof entry === 'string' ? entry : entry.model)) };
}

/**
 * The body the upstream receives: its own model id, gateway-only fields removed, thinking OpenAI did left out
 * (openai-reasoning-signature.ts), every other field as sent. (`omit` names further fields an endpoint does
 * not take, e.g. count_tokens.)
 */
export function buildUpstreamMessagesBody(request: MessagesRequest, upstreamModel: string, omit: readonly string[] = []): string {
  return JSON.stringify({ ...claudeReadableBody(request, omit), model: upstreamModel });
}

/**
 * A Messages client's body as a Claude model may read it (Anthropic's API or Bedrock's): gateway-only fields
 * and `omit` removed, thinking OpenAI did left out of the conversation. A tool loop left so without its
 * opening thinking (the client switched to Claude mid-loop) would be refused with thinking on ("a final
 * assistant message must start with a thinking block"): that request goes without thinking, as a
 * translated one does.
 */
export function claudeReadableBody(body: Readonly<Record<string, unknown>>, omit: readonly string[] = []): Record<string, unknown> {
  const readable: Record<string, unknown> = { ...body };
  const { messages, thinking } = body;
  if (Array.isArray(messages)) {
    readable.messages = withoutCarriedOpenAiReasoning(messages);
    const thinks = typeof thinking === 'object' && thinking !== null && (thinking as { type?: unknown }).type !== 'disabled';
    if (readable.messages !== messages && thinks && toolLoopLacksThinking(asBlockMessages(readable.messages as unknown[]))) delete readable.thinking;
  }
  for (const field of [...messagesGatewayOnlyFields, ...omit]) delete readable[field];
  return readable;
}

/** The messages with string contents as one text block each, for the readers that look at blocks. */
function asBlockMessages(messages: readonly unknown[]): AnthropicRequestMessage[] {
  return messages.map((message) => {
    const { role, content } = (message ?? {}) as { role?: unknown; content?: unknown };
    return { role, content: Array.isArray(content) ? content : [{ type: 'text', text: String(content ?? '') }] } as AnthropicRequestMessage;
  });
}
