import * as z from 'zod';

/**
 * The parts of OpenAI's Chat Completions wire format the translators read, leniently: OpenAI-compatible
 * servers add fields (`reasoning`, `reasoning_content`, `obfuscation`, filter results) and send nulls.
 */
const tokenCount = z.number().nonnegative().nullish().catch(undefined);

export const chatUsageSchema = z.looseObject({
  prompt_tokens: tokenCount,
  completion_tokens: tokenCount,
  total_tokens: tokenCount,
  prompt_tokens_details: z.looseObject({ cached_tokens: tokenCount }).nullish().catch(undefined),
  completion_tokens_details: z.looseObject({ reasoning_tokens: tokenCount }).nullish().catch(undefined),
});
export type ChatUsage = z.infer<typeof chatUsageSchema>;

const toolCallFunctionSchema = z.looseObject({ name: z.string().nullish(), arguments: z.string().nullish() });

export const chatToolCallSchema = z.looseObject({
  id: z.string().nullish(),
  type: z.string().nullish(),
  function: toolCallFunctionSchema.nullish(),
  /** A custom tool's call (`type: "custom"`): its free-text input instead of JSON arguments. */
  custom: z.looseObject({ name: z.string().nullish(), input: z.string().nullish() }).nullish(),
});

/** The fields of an assistant message (or of a stream delta) that carry generated content. */
const generatedFields = {
  content: z.string().nullish(),
  reasoning_content: z.string().nullish(),
  /** OpenRouter and newer vLLM name the reasoning text `reasoning`. */
  reasoning: z.string().nullish(),
  refusal: z.string().nullish(),
};

export const chatCompletionSchema = z.looseObject({
  id: z.string().nullish(),
  model: z.string().nullish(),
  choices: z
    .array(
      z.looseObject({
        index: z.number().nullish(),
        message: z.looseObject({ ...generatedFields, tool_calls: z.array(chatToolCallSchema).nullish() }).nullish(),
        finish_reason: z.string().nullish(),
        /** OpenRouter's: the word of the provider behind it (`end_turn`, `tool_use`), its `finish_reason` normalised. */
        native_finish_reason: z.string().nullish(),
      }),
    )
    .nullish(),
  usage: chatUsageSchema.nullish(),
});
export type ChatCompletion = z.infer<typeof chatCompletionSchema>;

export const chatErrorSchema = z.looseObject({
  message: z.string().nullish(),
  type: z.string().nullish(),
  code: z.union([z.string(), z.number()]).nullish(),
});

export const chatChunkSchema = z.looseObject({
  id: z.string().nullish(),
  model: z.string().nullish(),
  choices: z
    .array(
      z.looseObject({
        index: z.number().nullish(),
        delta: z
          .looseObject({
            ...generatedFields,
            tool_calls: z.array(chatToolCallSchema.extend({ index: z.number().int().nonnegative().nullish() })).nullish(),
          })
          .nullish(),
        finish_reason: z.string().nullish(),
        /** OpenRouter's: the word of the provider behind it (`end_turn`, `tool_use`), its `finish_reason` normalised. */
        native_finish_reason: z.string().nullish(),
      }),
    )
    .nullish(),
  usage: chatUsageSchema.nullish(),
  error: chatErrorSchema.nullish(),
});
export type ChatChunk = z.infer<typeof chatChunkSchema>;

const textPartSchema = z.looseObject({ type: z.string(), text: z.string().nullish() });

/** One content part of a chat message: text, image_url, file, input_audio or a type not known yet. */
export const chatContentPartSchema = textPartSchema.extend({
  image_url: z.union([z.string(), z.looseObject({ url: z.string() })]).nullish(),
  file: z.looseObject({ file_data: z.string().nullish(), filename: z.string().nullish() }).nullish(),
  refusal: z.string().nullish(),
  /** OpenRouter's prompt-caching breakpoint on a content part, as Anthropic's; a mark of another shape is not read. */
  cache_control: z.looseObject({ type: z.literal('ephemeral'), ttl: z.string().nullish() }).nullish().catch(undefined),
});
export type ChatContentPart = z.infer<typeof chatContentPartSchema>;

export const chatMessageSchema = z.looseObject({
  role: z.string(),
  content: z.union([z.string(), z.array(chatContentPartSchema)]).nullish(),
  tool_calls: z.array(chatToolCallSchema).nullish(),
  tool_call_id: z.string().nullish(),
});
export type ChatMessage = z.infer<typeof chatMessageSchema>;

/** The request fields the translation to Anthropic reads; everything else is reported as dropped. */
export const chatRequestSchema = z.looseObject({
  model: z.string().nullish(),
  messages: z.array(chatMessageSchema),
  max_tokens: z.number().int().positive().nullish(),
  max_completion_tokens: z.number().int().positive().nullish(),
  temperature: z.number().nullish(),
  top_p: z.number().nullish(),
  stop: z.union([z.string(), z.array(z.string())]).nullish(),
  stream: z.boolean().nullish(),
  tools: z
    .array(
      z.looseObject({
        type: z.string().nullish(),
        function: z
          .looseObject({
            name: z.string(),
            description: z.string().nullish(),
            parameters: z.record(z.string(), z.unknown()).nullish(),
            strict: z.boolean().nullish(),
          })
          .nullish(),
        /** OpenAI's custom tools take free text, optionally constrained by a grammar. */
        custom: z.looseObject({ name: z.string(), description: z.string().nullish(), format: z.record(z.string(), z.unknown()).nullish() }).nullish(),
      }),
    )
    .nullish(),
  tool_choice: z
    .union([
      z.enum(['auto', 'none', 'required']),
      z.looseObject({ type: z.string(), function: z.looseObject({ name: z.string() }).nullish(), custom: z.looseObject({ name: z.string() }).nullish() }),
    ])
    .nullish(),
  parallel_tool_calls: z.boolean().nullish(),
  user: z.string().nullish(),
  reasoning_effort: z.string().nullish(),
  /** OpenRouter's unified reasoning setting: an effort or a token budget, on or off, shown or not. */
  reasoning: z
    .looseObject({ effort: z.string().nullish(), max_tokens: z.number().int().positive().nullish(), enabled: z.boolean().nullish(), exclude: z.boolean().nullish() })
    .nullish(),
  /** OpenRouter's legacy switch: `false` is `reasoning: {exclude: true}` (done, not shown); `true` the default. */
  include_reasoning: z.boolean().nullish(),
  response_format: z
    .looseObject({
      type: z.string(),
      json_schema: z.looseObject({ name: z.string().nullish(), schema: z.record(z.string(), z.unknown()).nullish(), strict: z.boolean().nullish() }).nullish(),
    })
    .nullish(),
});
export type ChatRequest = z.infer<typeof chatRequestSchema>;
