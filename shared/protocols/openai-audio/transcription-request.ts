import { billedSeconds, type BilledUnits } from '../../core/billed-units.ts';
import type { GatewayRequest } from '../../http/gateway-http.ts';
import { formFiles, formValue } from '../../http/multipart-form.ts';
import { parseFormRequest, type FormRequest } from '../form-request.ts';
import { audioFileDurationSeconds, wavDurationSeconds } from './audio-duration.ts';

/**
 * The lowest bitrate a speech codec is used at (Opus at 4 kbit/s: 500 bytes a second): an upload of N bytes
 * holds at most N / 500 seconds of audio, the balance's worst case when its header does not say.
 */
export const LOWEST_AUDIO_BYTES_PER_SECOND = 500;

/** A transcription or translation: an upload of the audio (`file`) and its fields. */
export function parseTranscriptionRequest(request: GatewayRequest): Promise<FormRequest> {
  return parseFormRequest(request, { files: ['file'] });
}

/**
 * The uploaded audio's duration when the gateway can tell (audio-duration.ts), in seconds: what a provider
 * that reports none (a text transcript, some providers' JSON) is billed for.
 */
export function uploadedAudioSeconds(request: FormRequest): number | undefined {
  const [file] = formFiles(request.form, 'file');
  if (!file) return undefined;
  return audioFileDurationSeconds(file.chunks.length === 1 ? (file.chunks[0] as Uint8Array) : Buffer.concat(file.chunks));
}

/** The uploaded audio's duration when its header says it (a WAV file), in seconds. */
function uploadedWavSeconds(request: FormRequest): number | undefined {
  const [file] = formFiles(request.form, 'file');
  if (!file) return undefined;
  // The header is in the first few kilobytes; the file's chunks are views of the request body.
  const head: Uint8Array[] = [];
  let size = 0;
  for (const chunk of file.chunks) {
    if (size >= WAV_HEADER_SEARCH_BYTES) break;
    head.push(chunk);
    size += chunk.byteLength;
  }
  return wavDurationSeconds(head.length === 1 ? (head[0] as Uint8Array) : Buffer.concat(head), file.size);
}

/** How far into a WAV file its `data` chunk header is looked for (past `fmt `, `LIST` and other chunks). */
const WAV_HEADER_SEARCH_BYTES = 4096;

/**
 * The most seconds of audio the upload can hold: its WAV duration, else its size at the lowest bitrate (the
 * durations other formats declare are taken for billing, but a crafted one could understate what a decoder
 * finds: the balance does not rest on them).
 */
export function transcriptionSecondsBound(request: FormRequest): BilledUnits {
  const known = uploadedWavSeconds(request);
  const [file] = formFiles(request.form, 'file');
  return { audioSeconds: billedSeconds(known ?? (file?.size ?? 0) / LOWEST_AUDIO_BYTES_PER_SECOND) };
}

/** The prompt field (context for the model), which some models bill as text tokens. */
export function transcriptionPromptText(request: FormRequest): string {
  return formValue(request.form, 'prompt') ?? '';
}
