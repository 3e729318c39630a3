import * as z from 'zod';
import { parseModelRequest, type RequestBodyJson } from '../parse-model-request.ts';
import { gatewayFieldsShape } from '../routing-fields.ts';

/** A moderation input part (omni-moderation reads text and images). */
const inputPart = z.looseObject({ type: z.string(), text: z.string().optional() });

/** The fields of a moderation request the gateway reads: `input` as text, texts, or text and image parts. */
export const moderationsRequestSchema = z.looseObject({
  model: z.string().min(1),
  input: z.union([z.string(), z.array(z.string()).min(1), z.array(inputPart).min(1)]),
  ...gatewayFieldsShape,
});
export type ModerationsRequest = z.infer<typeof moderationsRequestSchema>;

/** OpenAI's model for a moderation request that names none (`model` is optional there). */
export const DEFAULT_MODERATION_MODEL = 'omni-moderation-latest';

export function parseModerationsRequest(body: RequestBodyJson): ModerationsRequest {
  return parseModelRequest(body, moderationsRequestSchema, DEFAULT_MODERATION_MODEL);
}

export function moderationsPromptText(request: ModerationsRequest): string {
  const inputs: unknown[] = Array.isArray(request.input) ? request.input : [request.input];
  return inputs.map((input) => (typeof input === 'string' ? input : typeof (input as { text?: unknown }).text === 'string' ? (input as { text: string }).text : '')).join('\n');
}
