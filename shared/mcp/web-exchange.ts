import { bodyText, type GatewayRequest } from '../http/gateway-http.ts';

/** What the MCP transport reads of a request; the project key and the origin secret stay out of it. */
const FORWARDED_HEADERS = ['content-type', 'mcp-protocol-version', 'mcp-session-id', 'last-event-id'];

/**
 * The gateway request as the web-standard Request the SDK's transport handles. The Accept header is the
 * one the transport insists on (both types): the answer's format was chosen from the client's already.
 */
export function toWebRequest(request: GatewayRequest): Request {
  const headers = new Headers({ accept: 'application/json, text/event-stream' });
  for (const name of FORWARDED_HEADERS) {
    const value = request.headers[name];
    if (value !== undefined) headers.set(name, value);
  }
  const hasBody = request.method === 'POST';
  // The body as text, decoded strictly (JSON-RPC is UTF-8 JSON).
  return new Request(`https://gateway.invalid${request.path}`, { method: request.method, headers, ...(hasBody ? { body: bodyText(request) } : {}) });
}

/** The transport's response headers, minus the hop-by-hop ones a function URL sets itself. */
export function responseHeaders(response: Response): Record<string, string> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (name !== 'connection' && name !== 'transfer-encoding') headers[name] = value;
  });
  return headers;
}

/**
 * A body that runs `done` once before it ends, however it ends: read to the end, or cancelled by a client
 * that went away (after `cancelled`, so work in flight stops and is settled first).
 */
export function untilDone(body: ReadableStream<Uint8Array>, hooks: { cancelled(): void; done(): Promise<void> }): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let finished: Promise<void> | undefined;
  const finish = () => (finished ??= hooks.done());
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const read = await reader.read().catch(async (error: unknown) => {
          await finish();
          throw error;
        });
        if (read.done) {
          await finish();
          controller.close();
        } else controller.enqueue(read.value);
      },
      async cancel(reason) {
        hooks.cancelled();
        try {
          await reader.cancel(reason);
        } finally {
          await finish();
        }
      },
    },
    { highWaterMark: 0 },
  );
}
