import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { StreamingResult } from './function-url.ts';

/** What the Lambda Node.js runtime provides as a global to handlers in response-streaming mode. */
declare const awslambda: {
  streamifyResponse<Handler>(handler: Handler): Handler;
  HttpResponseStream: { from(stream: Writable, prelude: { statusCode: number; headers?: Record<string, string> }): Writable };
};

/** What middy hands an execution mode (middy's own modes take the same; @middy/core types it loosely). */
interface MiddyParts {
  middyRequest(event: unknown, context: unknown): unknown;
  runRequest(request: unknown, ...stages: unknown[]): Promise<unknown>;
}
interface MiddyPlugin {
  requestStart(request: unknown): void;
  requestEnd(request: unknown): unknown;
}
type StreamingFunction = ((event: unknown, responseStream: Writable, context: unknown) => Promise<void>) & { handler?: (replacement: unknown) => unknown };

/**
 * middy's response-streaming execution mode (`@middy/core/StreamifyResponse`), with the body written without
 * `stream.pipeline` when it is a Node stream (the stream relay's): pipeline's end-of-stream watchers and the
 * AbortController it aborts (building a DOMException) at every end cost ~60 µs of a stream's CPU, a tenth of
 * a short stream's (docs/performance.md). The rest is as middy does it: the status line and headers go out
 * at once, then the body; `requestEnd` (the usage hand-over) runs after the body ended, failed or not, and
 * the invocation ends after it. A web stream body still goes through pipeline.
 */
export function executionModeStreamBody(parts: MiddyParts, before: unknown, lambdaHandler: unknown, after: unknown, onError: unknown, plugin: MiddyPlugin): StreamingFunction {
  const streaming: StreamingFunction = awslambda.streamifyResponse(async (event: unknown, responseStream: Writable, context: unknown) => {
    const request = parts.middyRequest(event, context);
    plugin.requestStart(request);
    const { body, ...prelude } = (await parts.runRequest(request, before, lambdaHandler, after, onError, plugin)) as StreamingResult;
    const stream = awslambda.HttpResponseStream.from(responseStream, prelude);
    stream.write('');
    let failure: { error: unknown } | undefined;
    try {
      if (typeof body === 'string') await endWith(stream, body);
      else if (body instanceof Readable) await pipeInto(body, stream);
      else await pipeline(body, stream);
    } catch (error) {
      failure = { error };
    }
    try {
      await plugin.requestEnd(request);
    } catch (hookError) {
      if (!failure) throw hookError;
      if (typeof failure.error === 'object' && failure.error !== null) (failure.error as { cause?: unknown }).cause ??= hookError;
    }
    if (failure) throw failure.error;
  });
  streaming.handler = (replacement: unknown) => {
    lambdaHandler = replacement;
    return streaming;
  };
  return streaming;
}

function endWith(stream: Writable, body: string): Promise<void> {
  return new Promise((resolve, reject) => {
    stream.once('error', reject);
    stream.end(body, () => resolve());
  });
}

/**
 * The body piped into the response stream. Either failing fails both, as pipeline does; the promise settles
 * only once the body has closed, so a relay has settled its usage before `requestEnd` hands it over.
 */
function pipeInto(body: Readable, stream: Writable): Promise<void> {
  return new Promise((resolve, reject) => {
    let ended = false;
    const end = (error?: unknown): void => {
      if (ended) return;
      ended = true;
      if (error === undefined) return resolve();
      body.unpipe(stream);
      if (!stream.destroyed) stream.destroy(error instanceof Error ? error : undefined);
      if (body.closed) return reject(error);
      body.once('close', () => reject(error));
      body.destroy();
    };
    body.on('error', end);
    stream.on('error', end);
    stream.once('close', () => {
      if (!stream.writableFinished) end(new Error('The response stream closed before the answer ended.'));
    });
    stream.once('finish', () => end());
    body.pipe(stream);
  });
}
