import { GatewayError, toGatewayError } from '../core/errors.ts';
import { asWebStream, discardAnswerStream, type GatewayResponse } from '../http/gateway-http.ts';
import { HEARTBEAT_FRAME } from '../transport/stream-relay.ts';
import { readErrorWords } from '../transport/upstream-errors.ts';

export interface CommitEarlyOptions {
  /** How long the status may be held back waiting for the upstream (below the origin read timeout). */
  holdMs: number;
  heartbeatIntervalMs: number;
  /** The client protocol's in-band error frame, for a failure after the status went out. */
  errorFrame: (error: GatewayError) => string;
  contentType: string;
  headers: Record<string, string>;
}

const encoder = new TextEncoder();

/**
 * CloudFront gives up on an origin that sends nothing for its read timeout, however long the provider
 * thinks. A stream whose answer comes quickly keeps its real status (a fast error stays an HTTP error, and
 * failover happens before anything is sent); one still waiting after `holdMs` is committed: 200 and the
 * stream's headers go out, heartbeats follow while the attempts go on, then the answer's own stream, or
 * its failure as the protocol's in-band error. `answering` settles usage itself, whichever way it ends.
 */
export async function holdOrCommit(answering: Promise<GatewayResponse>, options: CommitEarlyOptions): Promise<GatewayResponse> {
  let timer: NodeJS.Timeout | undefined;
  const held = new Promise<'commit'>((resolve) => (timer = setTimeout(() => resolve('commit'), options.holdMs)));
  try {
    const first = await Promise.race([answering, held]);
    if (first !== 'commit') return first;
  } finally {
    clearTimeout(timer);
  }
  return { status: 200, headers: { 'content-type': options.contentType, 'cache-control': 'no-cache', ...options.headers }, body: committedBody(answering, options) };
}

function committedBody(answering: Promise<GatewayResponse>, options: CommitEarlyOptions): ReadableStream<Uint8Array> {
  const outcome = answering.then(
    (response) => ({ response }),
    (error: unknown) => ({ error: toGatewayError(error) }),
  );
  let answerReader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (answerReader) return forwardAnswer(answerReader, controller);
        let timer: NodeJS.Timeout | undefined;
        const beat = new Promise<'beat'>((resolve) => (timer = setTimeout(() => resolve('beat'), options.heartbeatIntervalMs)));
        const next = await Promise.race([outcome, beat]);
        clearTimeout(timer);
        if (next === 'beat') return controller.enqueue(encoder.encode(HEARTBEAT_FRAME));
        if ('error' in next) {
          controller.enqueue(encoder.encode(options.errorFrame(next.error)));
          return controller.close();
        }
        const { response } = next;
        if (response.status === 200 && typeof response.body !== 'string') {
          answerReader = asWebStream(response.body).getReader();
          // A pull must enqueue (or close) before it returns, or the stream is never pulled again.
          return forwardAnswer(answerReader, controller);
        }
        controller.enqueue(encoder.encode(options.errorFrame(failureOf(response))));
        controller.close();
      },
      async cancel(reason) {
        const next = await outcome;
        // The answer's own stream settles its usage when cancelled (as a client going away).
        if (!answerReader && 'response' in next && typeof next.response.body !== 'string') await discardAnswerStream(next.response.body);
        else await answerReader?.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}

async function forwardAnswer(reader: ReadableStreamDefaultReader<Uint8Array>, controller: ReadableStreamDefaultController<Uint8Array>): Promise<void> {
  const { done, value } = await reader.read();
  if (done) controller.close();
  else controller.enqueue(value);
}

/** An answer that came back as an error response (an upstream refusing the request), as an in-band error. */
function failureOf(response: GatewayResponse): GatewayError {
  const words = readErrorWords(typeof response.body === 'string' ? response.body : '');
  return new GatewayError(response.status >= 500 ? 'upstream' : 'invalid_request', words.message.trim() || `The provider answered HTTP ${response.status}.`, {
    code: words.code ?? words.type ?? 'upstream_rejected_request',
    status: response.status,
  });
}
