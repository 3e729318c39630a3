import { takesReasoningWith } from '../../core/provider-catalog.ts';
import * as z from 'zod';
import { parseModelRequest, type RequestBodyJson } from '../parse-model-request.ts';
import { effortNearestBudget } from '../../canonical/reasoning-settings.ts';
import { asJsonObject } from '../../core/json-object.ts';
import { gatewayFieldsShape, PROMPT_TRANSFORM_FIELDS, USAGE_ACCOUNTING_FIELDS } from '../routing-fields.ts';
import type { NativeFeatures } from '../wire-protocol.ts';

/** The most choices one request may ask for (OpenAI's limit for `n`): each can be billed up to the output cap. */
export const MAX_CHOICES_PER_REQUEST = 128;

/**
 * The fields of a chat completion request the gateway reads. Everything else passes to the upstream
 * untouched, so new OpenAI parameters work without a gateway release.
 */
export const chatCompletionRequestSchema = z.looseObject({
  model: z.string().min(1),
  // As OpenAI and Anthropic refuse it: a translation would otherwise answer (and bill) an empty conversation.
  messages: z.array(z.unknown()).min(1, 'an empty array: at least one message is required'),
  stream: z.boolean().nullish(),
  stream_options: z.looseObject({ include_usage: z.boolean().nullish() }).nullish(),
  n: z.number().int().min(1).max(MAX_CHOICES_PER_REQUEST).nullish(),
  /** OpenRouter's legacy reasoning switch: applied by the gateway (reasoningExcluded), never sent upstream. */
  include_reasoning: z.boolean().nullish(),
  /** Routing-only fields (spec 2.2) and the usage-accounting switch: consumed by the gateway, never sent upstream. */
  ...gatewayFieldsShape,
});
export type ChatCompletionRequest = z.infer<typeof chatCompletionRequestSchema>;

export const gatewayOnlyFields = ['models', 'route', 'provider', ...USAGE_ACCOUNTING_FIELDS, ...PROMPT_TRANSFORM_FIELDS] as const;

/** Parses the client's body, turning every defect into a 400 that names the field. */
export function parseChatCompletionRequest(body: RequestBodyJson): ChatCompletionRequest {
  return parseModelRequest(body, chatCompletionRequestSchema);
}

/**
 * The body the upstream receives: its own model id, gateway-only fields removed, and, for streams, a
 * request for usage (the gateway meters every stream; what the client did not ask for it does not see).
 * To OpenAI's own API a `max_tokens` goes as `max_completion_tokens`, the same cap: its reasoning models
 * refuse `max_tokens` with a 400, which OpenRouter and LiteLLM users, who send it to every model, never see.
 */
export function buildUpstreamChatBody(request: ChatCompletionRequest, upstreamModel: string, features: NativeFeatures): string {
  const upstream: Record<string, unknown> = { ...request, model: upstreamModel };
  for (const field of gatewayOnlyFields) delete upstream[field];
  if (features.maxCompletionTokens && upstream.max_tokens !== undefined && upstream.max_completion_tokens === undefined) {
    upstream.max_completion_tokens = upstream.max_tokens;
    // Left out of the JSON as undefined: deleting a field the object holds makes its serialisation slower.
    upstream.max_tokens = undefined;
  }
  // Applied by the gateway (reasoningExcluded), which hides the reasoning itself: OpenAI refuses the field.
  delete upstream.include_reasoning;
  const effort = features.reasoningObject ? effortOnlyReasoning(request) : withoutEffortForNonReasoning(reasoningAsEffort(request), features);
  if (effort !== undefined) upstream.reasoning_effort = effort;
  if (upstream.reasoning !== undefined && (effort !== undefined || !features.reasoningObject)) upstream.reasoning = undefined;
  if (request.stream === true) upstream.stream_options = { ...request.stream_options, include_usage: true };
  return JSON.stringify(upstream);
}

/**
 * OpenRouter's `reasoning` for a provider that does not read it, when no `reasoning_effort` is set: its
 * effort, or its `max_tokens` budget as the nearest effort. `exclude` is the gateway's to apply
 * (reasoningExcluded); `enabled: true` alone leaves the model its default, and `enabled: false` has no
 * form every model takes (OpenAI's reasoning models always reason).
 */
function reasoningAsEffort(request: ChatCompletionRequest): string | undefined {
  const reasoning = asJsonObject(request.reasoning);
  if (!reasoning || request.reasoning_effort !== undefined || reasoning.enabled === false) return undefined;
  if (typeof reasoning.effort === 'string') return reasoning.effort;
  return typeof reasoning.max_tokens === 'number' && reasoning.max_tokens > 0 ? effortNearestBudget(reasoning.max_tokens) : undefined;
}

/**
 * OpenRouter's `reasoning` made an effort is not sent to a model of OpenAI's own API that does not reason
 * (gpt-4o-mini: "Unrecognized request argument" / "not supported with this model", a 400): OpenRouter
 * users send `reasoning` to every model, and OpenRouter ignores it where the model has none. A
 * `reasoning_effort` the client sent itself goes as sent.
 */
function withoutEffortForNonReasoning(effort: string | undefined, features: NativeFeatures): string | undefined {
  return takesReasoningWith(features) ? effort : undefined;
}

/**
 * OpenRouter's `reasoning` when all it says is an effort (`{effort}`, or with `enabled: true`) and no
 * `reasoning_effort` is set: sent as `reasoning_effort`, which OpenAI and Azure take (they refuse a
 * `reasoning` object: "Unrecognized request argument supplied") and OpenRouter reads as the same setting.
 * For OpenRouter, which reads the object: a budget, `exclude` or `enabled: false` goes as sent.
 */
function effortOnlyReasoning(request: ChatCompletionRequest): string | undefined {
  const reasoning = asJsonObject(request.reasoning);
  if (!reasoning || request.reasoning_effort !== undefined || typeof reasoning.effort !== 'string') return undefined;
  const others = Object.entries(reasoning).filter(([field, value]) => field !== 'effort' && !(field === 'enabled' && value === true) && value !== null && value !== undefined);
  return others.length === 0 ? reasoning.effort : undefined;
}

/**
 * Whether the client asked for reasoning it does not see (still billed): OpenRouter's `reasoning: {exclude:
 * true}`, or its legacy `include_reasoning: false` unless `reasoning.exclude` says otherwise.
 */
export function reasoningExcluded(body: Readonly<Record<string, unknown>>): boolean {
  const exclude = asJsonObject(body.reasoning)?.exclude;
  return typeof exclude === 'boolean' ? exclude : body.include_reasoning === false;
}

/**
 * The field a translated answer's reasoning goes in: OpenRouter's `reasoning` for a client that spoke
 * OpenRouter's reasoning settings (`reasoning`, `include_reasoning`) and reads its answers so, else
 * `reasoning_content`, the field DeepSeek, vLLM and LiteLLM use.
 */
export function reasoningFieldFor(body: Readonly<Record<string, unknown>>): 'reasoning' | 'reasoning_content' {
  return (body.reasoning !== undefined && body.reasoning !== null) || (body.include_reasoning !== undefined && body.include_reasoning !== null) ? 'reasoning' : 'reasoning_content';
}

export function clientAskedForStreamUsage(request: ChatCompletionRequest): boolean {
  return request.stream_options?.include_usage === true;
}

/** A custom tool or call, as chat spells it (`type: "custom"`, or a `custom` member without `function`). */
function isCustom(item: unknown): boolean {
  const entry = asJsonObject(item);
  return entry !== undefined && (entry.type === 'custom' || (entry.custom !== undefined && entry.function === undefined));
}

/** Whether a chat body offers a custom tool or replays a custom tool call: a provider without custom tools refuses either. */
export function chatBodyUsesCustomTools(body: Record<string, unknown>): boolean {
  const tools = Array.isArray(body.tools) ? body.tools : [];
  const messages = Array.isArray(body.messages) ? body.messages : [];
  return tools.some(isCustom) || messages.some((message) => {
    const calls = asJsonObject(message)?.tool_calls;
    return Array.isArray(calls) && calls.some(isCustom);
  });
}
