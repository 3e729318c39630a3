import { z } from 'zod';
import type { BilledUnits } from '../../core/billed-units.ts';
import { parseModelRequest, type RequestBodyJson } from '../parse-model-request.ts';
import { gatewayFieldsShape } from '../routing-fields.ts';

/**
 * The fields of a speech request the gateway reads. `voice`, `response_format` (mp3, opus, aac, flac,
 * wav, pcm), `speed`, `instructions` and `stream_format` reach the provider untouched: it refuses what it
 * does not know, in its own words.
 */
export const speechRequestSchema = z.looseObject({
  model: z.string().min(1),
  input: z.string().min(1),
  ...gatewayFieldsShape,
});
export type SpeechRequest = z.infer<typeof speechRequestSchema>;

export function parseSpeechRequest(body: RequestBodyJson): SpeechRequest {
  return parseModelRequest(body, speechRequestSchema);
}

/** The characters spoken, as providers count them (code points, not UTF-16 units): what TTS is priced by. */
export function spokenCharacters(request: SpeechRequest): BilledUnits {
  return { characters: [...request.input].length };
}
