import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { audioFileDurationSeconds } from '../../shared/protocols/openai-audio/audio-duration.ts';
import { makeWav } from '../support/binary-files.ts';

/** The 3.5-second tones of test/fixtures/audio (README.source.txt there says how each was made). */
const tone = (name: string) => readFileSync(new URL(`../fixtures/audio/${name}`, import.meta.url));

describe('audioFileDurationSeconds', () => {
  it.each([
    // Every frame is counted, the encoder's Info frame and padding included, as mutagen's 3.6 does.
    ['MP3 (ID3 tag, LAME Info frame, MPEG-2 layer III)', 'tone.mp3', 3.636],
    ['M4A (AAC, its movie header after the media)', 'tone.m4a', 3.5],
    ['FLAC', 'tone.flac', 3.5],
    ['Ogg Opus (less its pre-skip)', 'tone.ogg', 3.5],
    ['Ogg Vorbis', 'tone-vorbis.ogg', 3.5],
  ])('reads the duration of %s', (_format, file, seconds) => {
    expect(audioFileDurationSeconds(tone(file))).toBeCloseTo(seconds, 3);
  });

  it('reads a WAV header as before', () => {
    expect(audioFileDurationSeconds(makeWav(2.5))).toBe(2.5);
  });

  it('counts the MP3 frames past a broken stretch, as a decoder resyncs, and nothing in garbage', () => {
    const mp3 = tone('tone.mp3');
    const broken = Buffer.concat([mp3.subarray(0, 1000), Buffer.alloc(300, 0xff), mp3.subarray(1000)]);
    expect(audioFileDurationSeconds(broken)).toBeGreaterThan(3.4);
    expect(audioFileDurationSeconds(Buffer.from([0xff, 0xfb, 0x90, 0x64, 1, 2, 3]))).toBeUndefined();
  });

  it('tells nothing of a WebM file or of bytes in no known format', () => {
    expect(audioFileDurationSeconds(tone('tone.webm'))).toBeUndefined();
    expect(audioFileDurationSeconds(Buffer.from('not really mp3 \xff\xfe'))).toBeUndefined();
    expect(audioFileDurationSeconds(new Uint8Array())).toBeUndefined();
  });
});
