import { crc32, deflateSync } from 'node:zlib';

/**
 * Real binary files made by the tests themselves (no fixture needed): a PNG any image decoder reads, and a
 * PCM WAV of a sine tone. Both hold bytes that are not UTF-8, so an upload that is decoded as text anywhere
 * on its way arrives changed.
 */

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const checksum = Buffer.alloc(4);
  checksum.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, checksum]);
}

/** An RGBA PNG of `width`×`height` pixels in a gradient (or fully transparent: a mask). */
export function makePng(width: number, height: number, options: { transparent?: boolean } = {}): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.writeUInt8(8, 8); // bit depth
  header.writeUInt8(6, 9); // colour type: RGBA
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(1 + width * 4); // filter byte 0, then the pixels
    for (let x = 0; x < width; x++) {
      row.writeUInt8((x * 255) / Math.max(1, width - 1), 1 + x * 4);
      row.writeUInt8((y * 255) / Math.max(1, height - 1), 2 + x * 4);
      row.writeUInt8(0x80, 3 + x * 4);
      row.writeUInt8(options.transparent ? 0 : 0xff, 4 + x * 4);
    }
    rows.push(row);
  }
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, pngChunk('IHDR', header), pngChunk('IDAT', deflateSync(Buffer.concat(rows))), pngChunk('IEND', Buffer.alloc(0))]);
}

/** A 16-bit mono PCM WAV of a 440 Hz tone lasting `seconds`. */
export function makeWav(seconds: number, sampleRate = 16_000): Buffer {
  const samples = Math.round(seconds * sampleRate);
  const data = Buffer.alloc(samples * 2);
  for (let index = 0; index < samples; index++) data.writeInt16LE(Math.round(Math.sin((2 * Math.PI * 440 * index) / sampleRate) * 12_000), index * 2);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVE', 8, 'latin1');
  header.write('fmt ', 12, 'latin1');
  header.writeUInt32LE(16, 16); // fmt chunk size
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * 2, 28); // byte rate
  header.writeUInt16LE(2, 32); // block align
  header.writeUInt16LE(16, 34); // bits per sample
  header.write('data', 36, 'latin1');
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

/** The parts of a multipart/form-data body as a server reads them (undici's parser): files as bytes. */
export async function readUpload(raw: Buffer, contentType: string | undefined): Promise<Map<string, Array<string | { filename: string; type: string; bytes: Buffer }>>> {
  const form = await new Response(new Uint8Array(raw), { headers: { 'content-type': contentType ?? '' } }).formData();
  const parts = new Map<string, Array<string | { filename: string; type: string; bytes: Buffer }>>();
  for (const [name, value] of form.entries()) {
    const entry = typeof value === 'string' ? value : { filename: value.name, type: value.type, bytes: Buffer.from(await value.arrayBuffer()) };
    parts.set(name, [...(parts.get(name) ?? []), entry]);
  }
  return parts;
}
