import type { ServerResponse } from 'node:http';
import { Writable } from 'node:stream';

/** What a streaming handler passes to `HttpResponseStream.from`: the function URL's status and headers. */
interface ResponsePrelude {
  statusCode?: number;
  headers?: Record<string, string>;
  cookies?: string[];
}

/**
 * The response stream a Lambda runtime hands to a streaming handler, written into a Node HTTP response.
 * Like a function URL, it does not tell the handler when the client goes away: writes after a
 * disconnect are dropped, so the handler runs (and meters) to the end as it would in AWS.
 */
export class LocalResponseStream extends Writable {
  private readonly response: ServerResponse;

  constructor(response: ServerResponse) {
    super();
    this.response = response;
  }

  setPrelude(prelude: ResponsePrelude): void {
    if (this.response.headersSent) return;
    const headers: Record<string, string | string[]> = { ...prelude.headers };
    if (prelude.cookies?.length) headers['set-cookie'] = prelude.cookies;
    this.response.writeHead(prelude.statusCode ?? 200, headers);
    // What the handler writes in this turn of the event loop (a JSON body and its end, or a stream's first
    // event) leaves with the head in one socket write; the head goes alone only if nothing follows at once.
    // The socket is corked, not the response: ServerResponse.cork() loses a body ended while corked.
    const socket = this.response.socket;
    socket?.cork();
    setImmediate(() => {
      socket?.uncork();
      if (!this.bodyStarted && !this.response.writableEnded) this.response.flushHeaders();
    });
  }

  private bodyStarted = false;

  get clientGone(): boolean {
    return this.response.destroyed || this.response.writableEnded;
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    if (!this.response.headersSent) this.setPrelude({ statusCode: 200, headers: { 'content-type': 'application/octet-stream' } });
    if (chunk.length > 0) this.bodyStarted = true;
    if (this.clientGone) return done();
    if (this.response.write(chunk)) return done();
    const settle = () => {
      this.response.off('drain', settle);
      this.response.off('close', settle);
      done();
    };
    this.response.on('drain', settle);
    this.response.on('close', settle);
  }

  override _final(done: (error?: Error | null) => void): void {
    if (!this.response.headersSent) this.setPrelude({ statusCode: 200 });
    if (!this.clientGone) this.response.end();
    done();
  }
}

const streamingHandler = Symbol.for('gateway.local.streamingHandler');

/**
 * Installs the `awslambda` global that the Node.js Lambda runtime provides and middy's streaming mode
 * uses. Must run before any streaming handler module is imported.
 */
export function installLambdaRuntimeEmulation(): void {
  // Other libraries (the Lambda invoke store) may have created the object already: add to it.
  const globals = globalThis as { awslambda?: Record<string, unknown> };
  const runtime = (globals.awslambda ??= {});
  if (typeof runtime.streamifyResponse === 'function') return;
  Object.assign(runtime, {
    streamifyResponse<T extends object>(handler: T): T {
      Object.defineProperty(handler, streamingHandler, { value: true });
      return handler;
    },
    HttpResponseStream: {
      from(stream: LocalResponseStream, prelude: ResponsePrelude): LocalResponseStream {
        stream.setPrelude(prelude);
        return stream;
      },
    },
  });
}

export function isStreamingHandler(handler: object): boolean {
  return streamingHandler in handler;
}
