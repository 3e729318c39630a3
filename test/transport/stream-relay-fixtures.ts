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

/** A pull-based upstream that hands out the pieces one per read, then ends (or fails, or hangs). */
export function upstreamOf(pieces: Uint8Array[], end: 'close' | 'error' | 'hang' = 'close') {
  const state = { cancelledWith: undefined as unknown, reads: 0 };
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        const piece = pieces[state.reads];
        state.reads += 1;
        if (piece) return controller.enqueue(piece);
        if (end === 'close') return controller.close();
        if (end === 'error') return controller.error(new TypeError('terminated'));
        return new Promise<void>(() => {});
      },
      cancel(reason) {
        state.cancelledWith = reason;
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, state };
}

export function cutAt(bytes: Uint8Array, positions: number[]): Uint8Array[] {
  const bounds = [0, ...[...new Set(positions)].sort((a, b) => a - b), bytes.length];
  return bounds.slice(1).map((end, index) => bytes.slice(bounds[index], end)).filter((piece) => piece.length > 0);
}

export function relay(pieces: Uint8Array[], handler: StreamEventHandler = passThrough, end: 'close' | 'error' | 'hang' = 'close') {
  const upstream = upstreamOf(pieces, end);
  const settlements: StreamSettlement[] = [];
  const body = relayStream(upstream.stream, {
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

export async function readAll(body: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  return new Uint8Array(await new Response(body).arrayBuffer());
}
