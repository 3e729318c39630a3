import * as z from 'zod';
import type { BilledUnits } from '../../core/billed-units.ts';
import { parseModelRequest, type RequestBodyJson } from '../parse-model-request.ts';
import { gatewayFieldsShape } from '../routing-fields.ts';

/**
 * The fields of a speech request the gateway reads, and refuses as OpenAI does before any provider is
 * called: `input`, and `voice` (a voice's name, or a custom voice `{"id": "voice_…"}`), both required.
 * Which voices exist, `response_format` (mp3, opus, aac, flac, wav, pcm), `speed`, `instructions` and
 * `stream_format` are the provider's to judge: it refuses what it does not know, in its own words.
 */
export const speechRequestSchema = z.looseObject({
  model: z.string().min(1),
  input: z.string().min(1),
  voice: z.union([z.string().min(1), z.looseObject({ id: z.string().min(1) })], { error: 'expected the name of a voice, or a custom voice as {"id": "voice_…"}' }),
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
