import type { CanonicalEvent } from '../../canonical/canonical-events.ts';
import type { CanonicalResponse } from '../../canonical/canonical-response.ts';
import { readEventData } from '../../canonical/read-payload.ts';
import { billedSeconds, type BilledUnits } from '../../core/billed-units.ts';
import { asJsonObject } from '../../core/json-object.ts';
import { ZERO_USAGE } from '../../core/token-usage.ts';
import type { BytesMeter } from '../bridge.ts';
import type { EndpointApi } from '../api-bridge.ts';
import { formUpstreamRequest, type FormRequest } from '../form-request.ts';
import { presentWithUsageCost } from '../usage-cost.ts';
import type { StreamReader } from '../wire-protocol.ts';
import { subtitleEndSeconds } from './audio-duration.ts';
import { readAudioSeconds, readAudioTokenUsage } from './audio-usage.ts';
import { asksForTextTranscript, presentTextTranscript, withMeteredFormat } from './text-transcript.ts';
import { uploadedAudioSeconds } from './transcription-request.ts';

/** A transcript longer than this is not kept whole for metering (its end is what tells the duration). */
const MAX_TRANSCRIPT_KEPT = 1024 * 1024;

/**
 * OpenAI's transcription and translation APIs (`POST /audio/transcriptions`, `/audio/translations`),
 * native: the upload goes to the provider with its model id, the transcript comes back in the format asked
 * for: JSON (json, verbose_json, diarized_json), text (text, srt, vtt; relayed byte for byte), or events
 * (`stream: true` on models that stream). Billed by tokens where the model reports them, else by seconds of
 * audio: as reported, else the last subtitle cue's end, else the uploaded file's duration (WAV, FLAC, Ogg,
 * MP4/M4A, MP3, WebM). A text transcript of a gpt transcribe model is asked for as json, for its tokens, and
 * shown as text (text-transcript.ts).
 */
export function transcriptionApi(operation: 'transcriptions' | 'translations', request: FormRequest): EndpointApi {
  const fallbackSeconds = () => uploadedAudioSeconds(request);
  const textAsked = asksForTextTranscript(request);
  return {
    native: true,
    request: (body, upstreamModel) => formUpstreamRequest(`/audio/${operation}`, withMeteredFormat(body as FormRequest, upstreamModel), upstreamModel),
    answerKind(response, streamed) {
      const type = response.headers.get('content-type') ?? '';
      if (type.startsWith('text/event-stream')) return streamed ? 'stream' : 'bytes';
      return /json/.test(type) ? 'json' : 'bytes';
    },
    readResponse: (payload) => readTranscript(payload, fallbackSeconds),
    presentResponse: (text, payload, answer, presentation) =>
      (textAsked ? presentTextTranscript(payload) : undefined) ?? presentWithUsageCost(text, payload, answer.usage, presentation),
    createBytesMeter: () => transcriptMeter(fallbackSeconds),
    createStreamReader: createTranscriptStreamReader,
  };
}

function readTranscript(payload: Record<string, unknown>, fallbackSeconds: () => number | undefined): CanonicalResponse {
  const text = typeof payload.text === 'string' ? payload.text : '';
  const usage = readAudioTokenUsage(payload.usage);
  const answer: CanonicalResponse = { id: '', model: '', content: text ? [{ type: 'text', text }] : [], finish: 'stop' };
  if (usage) return { ...answer, usage };
  const units = readAudioSeconds(payload) ?? secondsUnits(fallbackSeconds());
  return units ? { ...answer, units } : answer;
}

/** A text, SRT or WebVTT transcript: the end of its last cue says how long the audio was. */
function transcriptMeter(fallbackSeconds: () => number | undefined): BytesMeter {
  const decoder = new TextDecoder();
  let text = '';
  return {
    push(chunk) {
      text += decoder.decode(chunk, { stream: true });
      // Only the end matters: keep the last part of a very long transcript.
      if (text.length > MAX_TRANSCRIPT_KEPT) text = text.slice(-MAX_TRANSCRIPT_KEPT / 2);
    },
    end() {
      text += decoder.decode();
      const units = secondsUnits(subtitleEndSeconds(text) ?? fallbackSeconds());
      return units ? { units } : {};
    },
  };
}

function secondsUnits(seconds: number | undefined): BilledUnits | undefined {
  return seconds === undefined ? undefined : { audioSeconds: billedSeconds(seconds) };
}

/** A streamed transcript: `transcript.text.delta` events, then `transcript.text.done` with the usage. */
function createTranscriptStreamReader(): StreamReader {
  return {
    push(data) {
      const event = asJsonObject(readEventData(data));
      const events: CanonicalEvent[] = [];
      if (event?.type === 'transcript.text.delta' && typeof event.delta === 'string') events.push({ type: 'text-delta', text: event.delta });
      if (event?.type === 'transcript.text.done') {
        const usage = readAudioTokenUsage(event.usage);
        if (usage) events.push({ type: 'usage', usage });
        else {
          const units = readAudioSeconds(event);
          if (units) events.push({ type: 'usage', usage: { ...ZERO_USAGE, units } });
        }
      }
      return events;
    },
  };
}
