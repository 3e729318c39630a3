import * as z from 'zod';
import type { BilledUnits } from '../../core/billed-units.ts';
import { formValue } from '../../http/multipart-form.ts';
import type { FormRequest } from '../form-request.ts';
import { parseModelRequest, type RequestBodyJson } from '../parse-model-request.ts';
import { gatewayFieldsShape } from '../routing-fields.ts';

/** The most images one request may ask for (OpenAI's limit for `n`), for the balance's worst case. */
export const MAX_IMAGES_PER_REQUEST = 10;

/** The fields of an image generation request the gateway reads; the rest reaches the provider untouched. */
export const imageGenerationRequestSchema = z.looseObject({
  model: z.string().min(1),
  prompt: z.string().min(1),
  n: z.number().int().min(1).max(MAX_IMAGES_PER_REQUEST).nullish(),
  stream: z.boolean().nullish(),
  ...gatewayFieldsShape,
});
export type ImageGenerationRequest = z.infer<typeof imageGenerationRequestSchema>;

export function parseImageGenerationRequest(body: RequestBodyJson): ImageGenerationRequest {
  return parseModelRequest(body, imageGenerationRequestSchema);
}

/** The images a generation can be billed: `n`, 1 unless given. */
export function generationImagesBound(request: ImageGenerationRequest): BilledUnits {
  return { images: request.n ?? 1 };
}

/** The images an edit (an upload) can be billed: its `n` field, 1 unless given, at most MAX_IMAGES_PER_REQUEST. */
export function editImagesBound(request: FormRequest): BilledUnits {
  const n = Number(formValue(request.form, 'n') ?? 1);
  return { images: Number.isInteger(n) && n >= 1 ? Math.min(n, MAX_IMAGES_PER_REQUEST) : 1 };
}
