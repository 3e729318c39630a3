/**
 * The duration of an MP4 or M4A file, as its movie header says (`moov` → `mvhd`: duration over timescale),
 * wherever `moov` is (before the media, or after it as most recorders write it). Undefined for anything
 * else, or when the header gives no duration.
 */
export function mp4DurationSeconds(bytes: Uint8Array): number | undefined {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.length < 12 || view.toString('latin1', 4, 8) !== 'ftyp') return undefined;
  const moov = findBox(view, 0, view.length, 'moov');
  const mvhd = moov && findBox(view, moov.start, moov.end, 'mvhd');
  if (!mvhd) return undefined;
  const fields = mvhd.start + 4; // past version and flags
  // Version 1 has 64-bit creation and modification times and duration; version 0 32-bit ones.
  const wide = view[mvhd.start] === 1;
  if (fields + (wide ? 28 : 16) > mvhd.end) return undefined;
  const timescale = view.readUInt32BE(fields + (wide ? 16 : 8));
  const duration = wide ? Number(view.readBigUInt64BE(fields + 20)) : view.readUInt32BE(fields + 12);
  // All ones is "unknown" (a fragmented file's header).
  if (!timescale || !duration || duration === 0xffffffff || duration === 2 ** 64 - 1) return undefined;
  return duration / timescale;
}

/** The contents (after the header) of the first box of `type` among those between `from` and `to`. */
function findBox(view: Buffer, from: number, to: number, type: string): { start: number; end: number } | undefined {
  let offset = from;
  while (offset + 8 <= to) {
    const size32 = view.readUInt32BE(offset);
    const large = size32 === 1 && offset + 16 <= to;
    const header = large ? 16 : 8;
    const size = large ? Number(view.readBigUInt64BE(offset + 8)) : size32 === 0 ? to - offset : size32;
    if (size < header) return undefined;
    const end = Math.min(offset + size, to);
    if (view.toString('latin1', offset + 4, offset + 8) === type) return { start: offset + header, end };
    offset += size;
  }
  return undefined;
}
