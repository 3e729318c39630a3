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

  it("reads a WebM file's declared duration, and one recorded live (MediaRecorder's: no duration, sizes unknown) from its blocks' times", () => {
    const webm = tone('tone.webm');
    expect(audioFileDurationSeconds(webm)).toBeCloseTo(3.508, 3);
    // The last block's time (3.501 s) plus the spacing of the blocks before it (20 ms of Opus).
    expect(audioFileDurationSeconds(recordedLive(webm))).toBeCloseTo(3.521, 3);
    expect(audioFileDurationSeconds(recordedLive(webm).subarray(0, 2000))).toBeGreaterThan(1);
  });

  it('tells nothing of bytes in no known format', () => {
    expect(audioFileDurationSeconds(Buffer.from('not really mp3 \xff\xfe'))).toBeUndefined();
    expect(audioFileDurationSeconds(Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x84, 0x42, 0x82, 0x81, 0x78]))).toBeUndefined();
    expect(audioFileDurationSeconds(new Uint8Array())).toBeUndefined();
  });
});

/**
 * A WebM file as a browser's MediaRecorder writes it, live: its Info's Duration a Void element of the same
 * length, its Segment's and Clusters' sizes "unknown" (every value bit set, in the same number of bytes).
 */
function recordedLive(webm: Buffer): Buffer {
  const live = Buffer.from(webm);
  const duration = live.indexOf(Buffer.from([0x44, 0x89, 0x88]));
  live.set([0xec, 0x89], duration);
  const unknownSize = (idAt: number) => {
    const sizeAt = idAt + 4;
    const length = Math.clz32(live[sizeAt] ?? 0) - 23;
    live.set([0xff >> (length - 1), ...Array<number>(length - 1).fill(0xff)], sizeAt);
  };
  unknownSize(live.indexOf(Buffer.from([0x18, 0x53, 0x80, 0x67])));
  for (let cluster = live.indexOf(Buffer.from([0x1f, 0x43, 0xb6, 0x75])); cluster >= 0; cluster = live.indexOf(Buffer.from([0x1f, 0x43, 0xb6, 0x75]), cluster + 4)) unknownSize(cluster);
  return live;
}
