/**
 * The first `maxBytes` of a body as UTF-8 text, for answers of which only the start is ever used (an
 * upstream's error, whose message is shown cut short). The rest is not read: the stream is cancelled and
 * its connection let go, where `Response.text()` would hold a body of any size whole. A body that breaks
 * off, or cannot be read, gives what came before it.
 */
export async function readTextPrefix(body: ReadableStream<Uint8Array> | null, maxBytes: number): Promise<string> {
  const chunks: Uint8Array[] = [];
  let received = 0;
  try {
    if (!body) return '';
    const reader = body.getReader();
    while (received < maxBytes) {
      const read = await reader.read();
      if (read.done) break;
      chunks.push(read.value);
      received += read.value.byteLength;
    }
    if (received >= maxBytes) await reader.cancel().catch(() => undefined);
  } catch {
    // Broken off (or already read): what came is all there is.
  }
  return Buffer.concat(chunks).subarray(0, maxBytes).toString('utf8');
}
