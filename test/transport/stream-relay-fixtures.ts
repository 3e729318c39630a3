import { Readable } from 'node:stream';
import { asWebStream } from '../../shared/http/gateway-http.ts';
import { openAiStreamErrorFrame } from '../../shared/protocols/openai-chat/openai-errors.ts';
import { relayStream, type StreamEventHandler, type StreamSettlement } from '../../shared/transport/stream-relay.ts';
import { readFixture } from '../support/fixtures.ts';

export const encoder = new TextEncoder();
export const recorded = readFixture('openai-chat/chat-stream-text-include-usage.sse');
/** The recorded stream with multi-byte characters (2, 3 and 4 UTF-8 bytes) in one delta. */
export const multiByte = recorded.replace('{"content":"The"}', '{"content":"héllo — 你好 🎉"}');
export const multiByteBytes = encoder.encode(multiByte);
export const events = recorded.split(/(?<=\n\n)/);

export const passThrough: StreamEventHandler = { onEvent: (event) => event.raw, onEnd: () => '' };

/**
 * An upstream as Node's HTTP client hands it over (a Node stream), read on demand: the pieces one per read,
 * then the end (or a failure, or nothing more). `destroyed` tells whether the relay let it go.
 */
export function upstreamOf(pieces: Uint8Array[], end: 'close' | 'error' | 'hang' = 'close') {
  const state = { destroyed: false, reads: 0 };
  const stream = new Readable({
    highWaterMark: 0,
    read() {
      const piece = pieces[state.reads];
      state.reads += 1;
      if (piece) this.push(piece);
      else if (end === 'close') this.push(null);
      else if (end === 'error') this.destroy(new TypeError('terminated'));
    },
    destroy(error, callback) {
      state.destroyed = true;
      callback(error);
    },
  });
  return { stream, state };
}

export function cutAt(bytes: Uint8Array, positions: number[]): Uint8Array[] {
  const bounds = [0, ...[...new Set(positions)].sort((a, b) => a - b), bytes.length];
  return bounds.slice(1).map((end, index) => bytes.slice(bounds[index], end)).filter((piece) => piece.length > 0);
}

export function relay(pieces: Uint8Array[], handler: StreamEventHandler = passThrough, end: 'close' | 'error' | 'hang' = 'close') {
  const upstream = upstreamOf(pieces, end);
  const settlements: StreamSettlement[] = [];
  const body = relayed(upstream.stream, {
    provider: 'openai',
    handler,
    errorFrame: openAiStreamErrorFrame,
    onSettled: async (settlement) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      settlements.push(settlement);
    },
  });
  return { body, settlements, upstream };
}

/** The relay's stream as the web stream a test reads chunk by chunk (what a held status reads, too). */
export function relayed(...args: Parameters<typeof relayStream>): ReadableStream<Uint8Array> {
  return asWebStream(relayStream(...args));
}

export async function readAll(body: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  return new Uint8Array(await new Response(body).arrayBuffer());
}
