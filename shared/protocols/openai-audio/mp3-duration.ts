/**
 * The duration of an MP3 (MPEG audio) file: the samples of its frames, walked from the first to the last.
 * Frames are counted as a decoder finds them: past a stretch that is no frame (a broken one, an APE or
 * ID3v1 tag) it looks for the next, and a frame counts only when another frame or the file's end follows
 * it whole, so that stray sync bytes in garbage count as nothing. Undefined when the file starts with neither an
 * ID3v2 tag nor a frame, or holds no frame.
 */
export function mp3DurationSeconds(bytes: Uint8Array): number | undefined {
  const start = id3v2TagSize(bytes);
  // Behind a tag, padding may come before the first frame; without one, the file is one only if a frame starts it.
  if (start === 0 && !readFrame(bytes, 0)) return undefined;
  let seconds = 0;
  let offset = start;
  while (offset + 4 <= bytes.length) {
    const frame = readFrame(bytes, offset);
    const next = frame ? offset + frame.length : 0;
    if (frame && (next === bytes.length || (next < bytes.length && readFrame(bytes, next)))) {
      seconds += frame.samples / frame.sampleRate;
      offset = next;
    } else offset += 1;
  }
  return seconds > 0 ? seconds : undefined;
}

interface Frame {
  length: number;
  samples: number;
  sampleRate: number;
}

// Kilobits a second by bitrate index: MPEG-1 layers I, II, III; MPEG-2 and 2.5 layer I, then layers II and III.
const BITRATES = {
  v1: [
    [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448],
    [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],
    [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
  ],
  v2: [
    [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],
    [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
    [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
  ],
} as const;
// Samples a second by sample-rate index, by version bits (0: MPEG-2.5, 2: MPEG-2, 3: MPEG-1).
const SAMPLE_RATES: Record<number, readonly number[]> = { 0: [11025, 12000, 8000], 2: [22050, 24000, 16000], 3: [44100, 48000, 32000] };

/** The frame whose 4-byte header is at `offset`, or undefined when none is (free-format frames included). */
function readFrame(bytes: Uint8Array, offset: number): Frame | undefined {
  if (offset + 4 > bytes.length) return undefined;
  const [b0, b1, b2] = [bytes[offset] ?? 0, bytes[offset + 1] ?? 0, bytes[offset + 2] ?? 0];
  if (b0 !== 0xff || (b1 & 0xe0) !== 0xe0) return undefined;
  const version = (b1 >> 3) & 3;
  const layer = 4 - ((b1 >> 1) & 3); // 1, 2 or 3; 4 is reserved
  const sampleRate = SAMPLE_RATES[version]?.[(b2 >> 2) & 3];
  const kbps = layer < 4 ? BITRATES[version === 3 ? 'v1' : 'v2'][layer - 1]?.[b2 >> 4] : undefined;
  if (!sampleRate || !kbps) return undefined;
  const padding = (b2 >> 1) & 1;
  const bitrate = kbps * 1000;
  if (layer === 1) return { length: (Math.floor((12 * bitrate) / sampleRate) + padding) * 4, samples: 384, sampleRate };
  const mpeg1OrLayer2 = version === 3 || layer === 2;
  const samples = mpeg1OrLayer2 ? 1152 : 576;
  return { length: Math.floor(((samples / 8) * bitrate) / sampleRate) + padding, samples, sampleRate };
}

/** The bytes of an ID3v2 tag at the file's start (its size is four 7-bit bytes, plus a footer when flagged). */
function id3v2TagSize(bytes: Uint8Array): number {
  if (bytes.length < 10 || bytes[0] !== 0x49 || bytes[1] !== 0x44 || bytes[2] !== 0x33) return 0;
  const size = ((bytes[6] ?? 0) << 21) | ((bytes[7] ?? 0) << 14) | ((bytes[8] ?? 0) << 7) | (bytes[9] ?? 0);
  const footer = ((bytes[5] ?? 0) & 0x10) !== 0 ? 10 : 0;
  return 10 + size + footer;
}
