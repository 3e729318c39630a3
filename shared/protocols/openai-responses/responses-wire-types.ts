import * as z from 'zod';

/**
 * The parts of OpenAI's Responses wire format the translators read (answers and stream events), leniently:
 * OpenAI adds item types, event types and fields often (`phase`, `obfuscation`, `billing`), and compatible
 * servers send nulls. An item or event of an unknown type still parses; its `type` tells.
 */
const tokenCount = z.number().int().nonnegative().nullish();
/** A detail count, dropped when a provider sends something odd: that must not discard the main counts. */
const detailCount = tokenCount.catch(undefined);

export const responsesUsageSchema = z.looseObject({
  input_tokens: tokenCount,
  output_tokens: tokenCount,
  total_tokens: detailCount,
  input_tokens_details: z.looseObject({ cached_tokens: detailCount, cache_write_tokens: detailCount }).nullish().catch(undefined),
  output_tokens_details: z.looseObject({ reasoning_tokens: detailCount }).nullish().catch(undefined),
});

const textPartSchema = z.looseObject({ type: z.string(), text: z.string().nullish(), refusal: z.string().nullish() });

/** One output item: a message, a function or custom tool call, reasoning, or a type the translators skip. */
export const responsesOutputItemSchema = z.looseObject({
  type: z.string(),
  id: z.string().nullish(),
  status: z.string().nullish(),
  role: z.string().nullish(),
  content: z.array(textPartSchema).nullish(),
  call_id: z.string().nullish(),
  name: z.string().nullish(),
  arguments: z.string().nullish(),
  input: z.string().nullish(),
  summary: z.array(textPartSchema).nullish(),
  encrypted_content: z.string().nullish(),
});
export type ResponsesOutputItem = z.infer<typeof responsesOutputItemSchema>;

export const responsesErrorSchema = z.looseObject({
  type: z.string().nullish(),
  code: z.string().nullish(),
  message: z.string().nullish(),
});

export const responsesObjectSchema = z.looseObject({
  id: z.string().nullish(),
  model: z.string().nullish(),
  status: z.string().nullish(),
  output: z.array(responsesOutputItemSchema).nullish(),
  usage: z.unknown().optional(),
  error: responsesErrorSchema.nullish(),
  incomplete_details: z.looseObject({ reason: z.string().nullish() }).nullish(),
});
export type ResponsesObject = z.infer<typeof responsesObjectSchema>;

/** Any stream event: the fields of the events the reader knows, all optional but `type`. */
export const responsesStreamEventSchema = z.looseObject({
  type: z.string(),
  response: responsesObjectSchema.nullish(),
  item: responsesOutputItemSchema.nullish(),
  output_index: z.number().int().nonnegative().nullish(),
  item_id: z.string().nullish(),
  summary_index: z.number().int().nonnegative().nullish(),
  delta: z.string().nullish(),
  arguments: z.string().nullish(),
  input: z.string().nullish(),
  /** An `error` event: nested as OpenAI sends it, or flat as its API reference documents it. */
  error: responsesErrorSchema.nullish(),
  code: z.string().nullish(),
  message: z.string().nullish(),
});
export type ResponsesStreamEvent = z.infer<typeof responsesStreamEventSchema>;
