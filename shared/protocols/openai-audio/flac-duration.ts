/**
 * The duration of a FLAC file from its STREAMINFO block (the first after `fLaC`): total samples over the
 * sample rate. Undefined for anything else, or when the encoder did not know the total (0).
 */
export function flacDurationSeconds(bytes: Uint8Array): number | undefined {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.length < 26 || view.toString('latin1', 0, 4) !== 'fLaC' || ((view[4] ?? 0) & 0x7f) !== 0) return undefined;
  // STREAMINFO from byte 8: block sizes (4 bytes), frame sizes (6), then 20 bits of sample rate, 3 of
  // channels, 5 of bits per sample and 36 of total samples.
  const sampleRate = ((view[18] ?? 0) << 12) | ((view[19] ?? 0) << 4) | ((view[20] ?? 0) >> 4);
  const totalSamples = ((view[21] ?? 0) & 0x0f) * 2 ** 32 + view.readUInt32BE(22);
  return sampleRate && totalSamples ? totalSamples / sampleRate : undefined;
}
