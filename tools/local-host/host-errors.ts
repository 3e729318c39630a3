import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { routeGroupForPath } from '../../shared/http/route-groups.ts';
import { GatewayError } from '../../shared/core/errors.ts';
import { clientProtocol } from '../../shared/protocols/client-protocols.ts';

/**
 * Answers the local host gives before any handler runs (a body too large or too slow, a request Node cannot
 * parse), in the error format of the route group the path belongs to, as the gateway's own errors are.
 */
export function renderHostError(path: string, error: GatewayError): { status: number; headers: Record<string, string>; body: string } {
  const protocol = clientProtocol(routeGroupForPath(path).protocol ?? 'openai-chat');
  const rendered = protocol.renderError(error, {});
  return { status: rendered.status, headers: rendered.headers, body: typeof rendered.body === 'string' ? rendered.body : '' };
}

export function sendHostError(response: ServerResponse, path: string, error: GatewayError): void {
  if (response.headersSent) return void response.destroy();
  const { status, headers, body } = renderHostError(path, error);
  response.writeHead(status, { ...headers, 'content-length': Buffer.byteLength(body), connection: 'close' }).end(body);
}

/** Node's own refusals (header syntax, headers too large): the same error format, written on the socket. */
export function answerClientError(error: Error & { code?: string; rawPacket?: Buffer }, socket: Socket): void {
  if (!socket.writable) return void socket.destroy();
  const requestLine = error.rawPacket?.toString('latin1').split('\r\n')[0] ?? '';
  const path = requestLine.split(' ')[1]?.split('?')[0] ?? '/';
  const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
  const gatewayError = tooLarge
    ? new GatewayError('invalid_request', 'The request headers are larger than the gateway accepts.', { code: 'headers_too_large', status: 431 })
    : new GatewayError('invalid_request', 'The request is not valid HTTP.', { code: 'malformed_request' });
  const { status, headers, body } = renderHostError(path.startsWith('/') ? path : '/', gatewayError);
  const head = Object.entries({ ...headers, 'content-length': String(Buffer.byteLength(body)), connection: 'close' })
    .map(([name, value]) => `${name}: ${value}`)
    .join('\r\n');
  socket.end(`HTTP/1.1 ${status} ${tooLarge ? 'Request Header Fields Too Large' : 'Bad Request'}\r\n${head}\r\n\r\n${body}`);
}

export const bodyTooLarge = () =>
  new GatewayError('request_too_large', 'The request body is larger than the 6 MB the gateway accepts.', { code: 'request_too_large' });

/** A binary body travels base64-encoded in the function URL's event, a third larger: ~4.5 MB of bytes fill its 6 MB. */
export const binaryBodyTooLarge = () =>
  new GatewayError('request_too_large', 'The request body is larger than a function URL takes (6 MB): a binary body (an upload) travels base64-encoded, so at most about 4.5 MB.', {
    code: 'request_too_large',
  });

export const bodyStalled = (seconds: number) =>
  new GatewayError('invalid_request', `The request body stopped arriving: nothing for ${seconds} s.`, { code: 'request_timeout', status: 408 });
