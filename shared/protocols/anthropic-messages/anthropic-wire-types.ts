import * as z from 'zod';

/**
 * The parts of Anthropic's Messages wire format the translators read, leniently: unknown fields pass,
 * missing ones are nullish, and a content block of an unknown type still parses (its `type` tells).
 */
const tokenCount = z.number().nonnegative().nullish().catch(undefined);

export const anthropicUsageSchema = z.looseObject({
  input_tokens: tokenCount,
  output_tokens: tokenCount,
  cache_creation_input_tokens: tokenCount,
  cache_read_input_tokens: tokenCount,
  output_tokens_details: z.looseObject({ thinking_tokens: tokenCount }).nullish().catch(undefined),
});
export type AnthropicUsage = z.infer<typeof anthropicUsageSchema>;

const imageSourceSchema = z.looseObject({
  type: z.string(),
  media_type: z.string().nullish(),
  data: z.string().nullish(),
  url: z.string().nullish(),
});

/** A prompt-caching breakpoint; a mark of another shape (a future type) is not read. */
const cacheControlSchema = z.looseObject({ type: z.literal('ephemeral'), ttl: z.string().nullish() }).nullish().catch(undefined);
export type AnthropicCacheControl = z.infer<typeof cacheControlSchema>;

/** Any content block: the fields of the types the translators know, all optional. */
export const anthropicBlockSchema = z.looseObject({
  type: z.string(),
  cache_control: cacheControlSchema,
  text: z.string().nullish(),
  thinking: z.string().nullish(),
  signature: z.string().nullish(),
  id: z.string().nullish(),
  name: z.string().nullish(),
  input: z.unknown().optional(),
  source: imageSourceSchema.nullish(),
  title: z.string().nullish(),
  tool_use_id: z.string().nullish(),
  /** A tool_result's content: a string or blocks. */
  content: z.unknown().optional(),
  is_error: z.boolean().nullish(),
});
export type AnthropicBlock = z.infer<typeof anthropicBlockSchema>;

export const anthropicMessageSchema = z.looseObject({
  id: z.string().nullish(),
  model: z.string().nullish(),
  content: z.array(anthropicBlockSchema).nullish(),
  stop_reason: z.string().nullish(),
  stop_sequence: z.string().nullish(),
  usage: anthropicUsageSchema.nullish(),
});
export type AnthropicMessage = z.infer<typeof anthropicMessageSchema>;

/** One stream event of any type; which fields matter depends on `type`. */
export const anthropicStreamEventSchema = z.looseObject({
  type: z.string(),
  index: z.number().int().nonnegative().nullish(),
  message: anthropicMessageSchema.nullish(),
  content_block: anthropicBlockSchema.nullish(),
  delta: z
    .looseObject({
      type: z.string().nullish(),
      text: z.string().nullish(),
      thinking: z.string().nullish(),
      signature: z.string().nullish(),
      partial_json: z.string().nullish(),
      stop_reason: z.string().nullish(),
    })
    .nullish(),
  usage: anthropicUsageSchema.nullish(),
  error: z.looseObject({ type: z.string().nullish(), message: z.string().nullish() }).nullish(),
});
export type AnthropicStreamEvent = z.infer<typeof anthropicStreamEventSchema>;

const messageContentSchema = z.union([z.string(), z.array(anthropicBlockSchema)]);

/** The request fields the translation to chat reads; the rest are reported as dropped. */
export const anthropicRequestSchema = z.looseObject({
  model: z.string().nullish(),
  system: messageContentSchema.nullish(),
  // Claude Code also sends `system` messages between turns (reminders); they become chat system messages in place.
  messages: z.array(z.looseObject({ role: z.enum(['user', 'assistant', 'system']), content: messageContentSchema })),
  max_tokens: z.number().int().positive().nullish(),
  temperature: z.number().nullish(),
  top_p: z.number().nullish(),
  stop_sequences: z.array(z.string()).nullish(),
  stream: z.boolean().nullish(),
  tools: z
    .array(
      z.looseObject({
        type: z.string().nullish(),
        name: z.string(),
        description: z.string().nullish(),
        input_schema: z.record(z.string(), z.unknown()).nullish(),
        cache_control: cacheControlSchema,
      }),
    )
    .nullish(),
  tool_choice: z
    .looseObject({
      type: z.enum(['auto', 'any', 'tool', 'none']),
      name: z.string().nullish(),
      disable_parallel_tool_use: z.boolean().nullish(),
    })
    .nullish(),
  metadata: z.looseObject({ user_id: z.string().nullish() }).nullish(),
  thinking: z.looseObject({ type: z.string(), budget_tokens: z.number().int().nullish() }).nullish(),
  // `format`: structured outputs (`output_format`, its beta name); read leniently, the reader checks its shape.
  output_config: z.looseObject({ effort: z.string().nullish(), format: z.unknown().optional() }).nullish(),
  output_format: z.unknown().optional(),
});
export type AnthropicRequest = z.infer<typeof anthropicRequestSchema>;
