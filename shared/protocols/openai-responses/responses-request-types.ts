import * as z from 'zod';

/**
 * The request fields the translation of a Responses request reads, leniently typed (every field it does
 * not know passes and is reported as dropped). Input items of any type parse; their `type` tells.
 */
const contentPartSchema = z.looseObject({
  type: z.string(),
  text: z.string().nullish(),
  refusal: z.string().nullish(),
  image_url: z.string().nullish(),
  file_id: z.string().nullish(),
  file_data: z.string().nullish(),
  file_url: z.string().nullish(),
  filename: z.string().nullish(),
});
export type ResponsesContentPart = z.infer<typeof contentPartSchema>;

const contentSchema = z.union([z.string(), z.array(contentPartSchema)]);

export const responsesInputItemSchema = z.looseObject({
  /** `message` when absent (the easy input message `{role, content}`). */
  type: z.string().nullish(),
  role: z.string().nullish(),
  content: contentSchema.nullish(),
  call_id: z.string().nullish(),
  name: z.string().nullish(),
  arguments: z.string().nullish(),
  input: z.string().nullish(),
  output: contentSchema.nullish(),
  summary: z.array(z.looseObject({ type: z.string(), text: z.string().nullish() })).nullish(),
  encrypted_content: z.string().nullish(),
});
export type ResponsesInputItem = z.infer<typeof responsesInputItemSchema>;

const toolSchema = z.looseObject({
  type: z.string(),
  name: z.string().nullish(),
  description: z.string().nullish(),
  parameters: z.record(z.string(), z.unknown()).nullish(),
  strict: z.boolean().nullish(),
  /** A custom tool's input format: `{type: "text"}` or `{type: "grammar", syntax, definition}`. */
  format: z.record(z.string(), z.unknown()).nullish(),
});

export const responsesTranslationSchema = z.looseObject({
  model: z.string().nullish(),
  input: z.union([z.string(), z.array(responsesInputItemSchema)]).nullish(),
  instructions: z.string().nullish(),
  tools: z.array(toolSchema).nullish(),
  tool_choice: z
    .union([z.enum(['auto', 'none', 'required']), z.looseObject({ type: z.string(), name: z.string().nullish() })])
    .nullish(),
  parallel_tool_calls: z.boolean().nullish(),
  max_output_tokens: z.number().int().positive().nullish(),
  temperature: z.number().nullish(),
  top_p: z.number().nullish(),
  stream: z.boolean().nullish(),
  reasoning: z.looseObject({ effort: z.string().nullish(), summary: z.string().nullish() }).nullish(),
  text: z
    .looseObject({
      format: z
        .looseObject({
          type: z.string(),
          name: z.string().nullish(),
          schema: z.record(z.string(), z.unknown()).nullish(),
          strict: z.boolean().nullish(),
        })
        .nullish(),
      verbosity: z.string().nullish(),
    })
    .nullish(),
  user: z.string().nullish(),
  safety_identifier: z.string().nullish(),
  previous_response_id: z.string().nullish(),
  store: z.boolean().nullish(),
  include: z.array(z.string()).nullish(),
});
export type ResponsesTranslationRequest = z.infer<typeof responsesTranslationSchema>;
