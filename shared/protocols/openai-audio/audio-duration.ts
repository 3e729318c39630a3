import { flacDurationSeconds } from './flac-duration.ts';
import { mp3DurationSeconds } from './mp3-duration.ts';
import { mp4DurationSeconds } from './mp4-duration.ts';
import { oggDurationSeconds } from './ogg-duration.ts';
import { webmDurationSeconds } from './webm-duration.ts';

/**
 * How long a piece of audio is, from what the gateway has of it when the provider does not say: an
 * uploaded audio file (WAV, FLAC, Ogg, MP4/M4A, WebM or MP3), or the last cue of a transcript in SRT or WebVTT.
 */

/**
 * The duration of an audio file in the formats OpenAI takes: each known by its first bytes, MP3 last (it
 * has no signature of its own but a frame).
 */
export function audioFileDurationSeconds(bytes: Uint8Array): number | undefined {
  return wavDurationSeconds(bytes) ?? flacDurationSeconds(bytes) ?? oggDurationSeconds(bytes) ?? mp4DurationSeconds(bytes) ?? webmDurationSeconds(bytes) ?? mp3DurationSeconds(bytes);
}

/**
 * The duration of a WAV file from its header (`fmt ` byte rate and `data` size), or undefined for anything
 * else. `head` is the file's start (its header); `totalBytes` the whole file's size.
 */
export function wavDurationSeconds(head: Uint8Array, totalBytes = head.byteLength): number | undefined {
  const view = Buffer.from(head.buffer, head.byteOffset, head.byteLength);
  if (view.length < 12 || view.toString('latin1', 0, 4) !== 'RIFF' || view.toString('latin1', 8, 12) !== 'WAVE') return undefined;
  let byteRate: number | undefined;
  let offset = 12;
  while (offset + 8 <= view.length) {
    const id = view.toString('latin1', offset, offset + 4);
    const size = view.readUInt32LE(offset + 4);
    if (id === 'fmt ' && offset + 16 <= view.length) byteRate = view.readUInt32LE(offset + 16);
    if (id === 'data') {
      // A streamed WAV may give its data size as 0 or 0xFFFFFFFF: then the rest of the file is its data.
      const available = totalBytes - offset - 8;
      const dataBytes = size === 0 || size === 0xffffffff ? available : Math.min(size, available);
      return byteRate ? dataBytes / byteRate : undefined;
    }
    offset += 8 + size + (size % 2);
  }
  return undefined;
}

const CUE_TIMESTAMP = /(?:(\d+):)?(\d{2}):(\d{2})[.,](\d{3})\s*-->\s*(?:(\d+):)?(\d{2}):(\d{2})[.,](\d{3})/g;

/** The end of the last cue of an SRT or WebVTT transcript, in seconds, or undefined when it has none. */
export function subtitleEndSeconds(text: string): number | undefined {
  let end: number | undefined;
  for (const match of text.matchAll(CUE_TIMESTAMP)) {
    const seconds = Number(match[5] ?? 0) * 3600 + Number(match[6]) * 60 + Number(match[7]) + Number(match[8]) / 1000;
    end = Math.max(end ?? 0, seconds);
  }
  return end;
}
