import { describe, expect, it } from 'vitest';
import { subtitleEndSeconds, wavDurationSeconds } from '../../shared/protocols/openai-audio/audio-duration.ts';
import { readAudioSeconds, readAudioTokenUsage } from '../../shared/protocols/openai-audio/audio-usage.ts';
import { presentTextTranscript, withMeteredFormat } from '../../shared/protocols/openai-audio/text-transcript.ts';
import type { FormRequest } from '../../shared/protocols/form-request.ts';
import { makeWav } from '../support/binary-files.ts';
import { readFixture } from '../support/fixtures.ts';

describe('wavDurationSeconds', () => {
  it('reads the duration of a PCM WAV from its header', () => {
    expect(wavDurationSeconds(makeWav(2.5))).toBe(2.5);
    expect(wavDurationSeconds(makeWav(1, 8000))).toBe(1);
  });

  it('reads it from the header alone, given the whole file size', () => {
    const wav = makeWav(3);
    expect(wavDurationSeconds(wav.subarray(0, 64), wav.length)).toBe(3);
  });

  it('knows nothing of other files', () => {
    expect(wavDurationSeconds(Buffer.from('ID3\x04 not a wav'))).toBeUndefined();
    expect(wavDurationSeconds(new Uint8Array())).toBeUndefined();
  });
});

describe('subtitleEndSeconds', () => {
  it('reads the end of the last SRT cue', () => {
    expect(subtitleEndSeconds('1\n00:00:00,000 --> 00:00:04,200\nA\n\n2\n00:00:04,200 --> 01:01:02,450\nB\n')).toBe(3662.45);
  });

  it('reads WebVTT cues, with or without hours', () => {
    expect(subtitleEndSeconds('WEBVTT\n\n00:00.000 --> 00:05.500\nA\n\n00:00:05.500 --> 00:00:09.000\nB\n')).toBe(9);
  });

  it('finds nothing in plain text', () => {
    expect(subtitleEndSeconds('Just the words.')).toBeUndefined();
  });
});

describe('audio usage', () => {
  it('reads the tokens a gpt-4o transcription reports', () => {
    const { usage } = JSON.parse(readFixture('other/openai-audio-transcriptions-gpt4o-json-token-usage.json')) as { usage: unknown };
    expect(readAudioTokenUsage(usage)).toEqual({ promptTokens: 122, completionTokens: 47, cachedTokens: 0, reasoningTokens: 0, estimated: false });
  });

  it('reads the seconds whisper reports, a started second billed whole', () => {
    const payload = JSON.parse(readFixture('other/openai-audio-transcriptions-verbose-json.json')) as Record<string, unknown>;
    expect(readAudioTokenUsage(payload.usage)).toBeUndefined();
    expect(readAudioSeconds(payload)).toEqual({ audioSeconds: 37 });
    expect(readAudioSeconds({ duration: 36.2 })).toEqual({ audioSeconds: 37 });
    expect(readAudioSeconds({ text: 'x' })).toBeUndefined();
  });
});

describe('withMeteredFormat', () => {
  const transcription = (fields: Record<string, string>, stream = false): FormRequest => ({
    model: 'openai/x',
    stream,
    form: { parts: Object.entries(fields).map(([name, value]) => ({ kind: 'field' as const, name, value })) },
  });
  const formatOf = (request: FormRequest) => request.form.parts.find((part) => part.name === 'response_format');

  it('asks a gpt transcribe model, the diarizing one included (or a dated snapshot), for json when the client asks for text', () => {
    for (const model of ['gpt-4o-transcribe', 'gpt-4o-mini-transcribe', 'gpt-4o-mini-transcribe-2025-12-15', 'gpt-4o-transcribe-diarize', 'gpt-transcribe']) {
      expect(formatOf(withMeteredFormat(transcription({ response_format: 'text', language: 'en' }), model))).toMatchObject({ value: 'json' });
    }
  });

  it('leaves whisper-1, other formats and streams as asked', () => {
    const text = transcription({ response_format: 'text' });
    expect(withMeteredFormat(text, 'whisper-1')).toBe(text);
    const json = transcription({ response_format: 'json' });
    expect(withMeteredFormat(json, 'gpt-4o-transcribe')).toBe(json);
    const streamed = transcription({ response_format: 'text' }, true);
    expect(withMeteredFormat(streamed, 'gpt-4o-transcribe')).toBe(streamed);
  });
});

describe('presentTextTranscript', () => {
  it("shows a JSON transcript's text as OpenAI's text answer", () => {
    expect(presentTextTranscript({ text: 'Hello world.', usage: {} })).toEqual({ body: 'Hello world.\n', contentType: 'text/plain; charset=utf-8' });
  });

  it('shows nothing of an answer without text (relayed as it came)', () => {
    expect(presentTextTranscript({ error: 'x' })).toBeUndefined();
  });
});
