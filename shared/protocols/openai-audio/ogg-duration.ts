/**
 * The duration of an Ogg Opus or Ogg Vorbis file: the granule position of its last page (samples, at
 * 48 kHz for Opus less its pre-skip, at the stream's rate for Vorbis). Undefined for anything else.
 */
export function oggDurationSeconds(bytes: Uint8Array): number | undefined {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.length < 28 || view.toString('latin1', 0, 4) !== 'OggS') return undefined;
  // The first page holds the codec's identification header, after the 27-byte page header and its segment table.
  const payload = 27 + (view[26] ?? 0);
  const codec = readCodec(view, payload);
  const last = view.lastIndexOf('OggS', view.length - 4, 'latin1');
  if (!codec || last < 0 || last + 14 > view.length) return undefined;
  const granule = Number(view.readBigInt64LE(last + 6));
  const samples = granule - codec.preSkip;
  return samples > 0 ? samples / codec.sampleRate : undefined;
}

function readCodec(view: Buffer, payload: number): { sampleRate: number; preSkip: number } | undefined {
  if (view.toString('latin1', payload, payload + 8) === 'OpusHead' && payload + 12 <= view.length) {
    return { sampleRate: 48_000, preSkip: view.readUInt16LE(payload + 10) };
  }
  if (view.toString('latin1', payload, payload + 7) === '\x01vorbis' && payload + 16 <= view.length) {
    const sampleRate = view.readUInt32LE(payload + 12);
    return sampleRate ? { sampleRate, preSkip: 0 } : undefined;
  }
  return undefined;
}
