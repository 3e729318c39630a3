import { Readable, Writable } from 'node:stream';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { streamingHandler } from '../../shared/lambda/lambda-handlers.ts';
import type { StreamingResult } from '../../shared/lambda/function-url.ts';
import { installLambdaRuntimeEmulation } from '../../tools/local-host/lambda-runtime-emulation.ts';

/**
 * The response-streaming execution mode under the Lambda runtime's globals: a Node body is piped by hand,
 * with pipeline's rules kept (either side failing fails both; the usage hand-over waits for the body).
 */
installLambdaRuntimeEmulation();

/** A response stream as the runtime hands it over: takes the prelude, records what is written, may fail. */
class RecordingResponseStream extends Writable {
  readonly written: string[] = [];
  prelude: unknown;
  private readonly log: string[];
  private readonly failAfterWrites: number;
  constructor(log: string[], failAfterWrites = Infinity) {
    super();
    this.log = log;
    this.failAfterWrites = failAfterWrites;
  }
  setPrelude(prelude: unknown): void {
    this.prelude = prelude;
  }
  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    if (this.written.length >= this.failAfterWrites) return done(new Error('the client connection broke'));
    if (chunk.length > 0) this.written.push(chunk.toString('utf8'));
    done();
  }
  override _final(done: () => void): void {
    this.log.push('response ended');
    done();
  }
}

function invoke(result: StreamingResult, stream: RecordingResponseStream, log: string[]): Promise<void> {
  const handler = streamingHandler(async () => ({ ...result, afterAnswer: async () => void log.push('usage handed over') })) as unknown as (
    event: APIGatewayProxyEventV2,
    stream: Writable,
    context: Context,
  ) => Promise<void>;
  return handler({} as APIGatewayProxyEventV2, stream, {} as Context);
}

/** A body of the given chunks, one a read, that takes a moment to settle when destroyed (as the relay settles usage). */
function bodyOf(chunks: string[], log: string[]): Readable {
  const body = new Readable({
    read() {
      const chunk = chunks.shift();
      setTimeout(() => this.push(chunk ?? null), 1);
    },
    destroy(error, callback) {
      setTimeout(() => {
        log.push('body settled');
        callback(error);
      }, 10);
    },
  });
  body.once('close', () => log.push('body closed'));
  return body;
}

describe('the response-streaming execution mode', () => {
  it('sends the head, then the Node body as it comes, ends the response, and only then hands the usage over', async () => {
    const log: string[] = [];
    const stream = new RecordingResponseStream(log);
    await invoke({ statusCode: 200, headers: { 'content-type': 'text/event-stream' }, body: bodyOf(['data: 1\n\n', 'data: 2\n\n'], log) }, stream, log);
    log.push('invocation ended');
    expect(stream.prelude).toEqual({ statusCode: 200, headers: { 'content-type': 'text/event-stream' } });
    expect(stream.written).toEqual(['data: 1\n\n', 'data: 2\n\n']);
    expect(log.indexOf('response ended')).toBeLessThan(log.indexOf('usage handed over'));
    expect(log.at(-1)).toBe('invocation ended');
  });

  it('lets the body go when the response stream fails, and hands the usage over only once the body has settled', async () => {
    const log: string[] = [];
    const stream = new RecordingResponseStream(log, 1);
    const invocation = invoke({ statusCode: 200, headers: {}, body: bodyOf(['data: 1\n\n', 'data: 2\n\n', 'data: 3\n\n'], log) }, stream, log);
    await expect(invocation).rejects.toThrow('the client connection broke');
    expect(log).toEqual(['body settled', 'body closed', 'usage handed over']);
  });

  it('fails the response stream when the body fails, and hands the usage over all the same', async () => {
    const log: string[] = [];
    const stream = new RecordingResponseStream(log);
    const body = new Readable({
      read() {
        this.destroy(new Error('the relay broke'));
      },
    });
    await expect(invoke({ statusCode: 200, headers: {}, body }, stream, log)).rejects.toThrow('the relay broke');
    expect(stream.destroyed).toBe(true);
    expect(log).toEqual(['usage handed over']);
  });

  it('writes a text body and a web stream body whole', async () => {
    const log: string[] = [];
    const text = new RecordingResponseStream(log);
    await invoke({ statusCode: 404, headers: { 'content-type': 'application/json' }, body: '{"error":{}}' }, text, log);
    expect(text.written).toEqual(['{"error":{}}']);
    const web = new RecordingResponseStream(log);
    await invoke({ statusCode: 200, headers: {}, body: new Response('data: web\n\n').body as ReadableStream<Uint8Array> }, web, log);
    expect(web.written.join('')).toBe('data: web\n\n');
    expect(log).toEqual(['response ended', 'usage handed over', 'response ended', 'usage handed over']);
  });
});
