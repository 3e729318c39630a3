import type { IncomingMessage } from 'node:http';
import { isUtf8 } from 'node:buffer';
import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';

const textContentType = /^(text\/|application\/(json|[\w.+-]*\+json|xml|x-www-form-urlencoded|javascript))/i;

/** Builds the payload-2.0 event a function URL would deliver for this request. */
export function buildFunctionUrlEvent(request: IncomingMessage, body: Buffer, nowMs: number): APIGatewayProxyEventV2 {
  // Prefixed rather than resolved: `//v1/models` is a path, not a protocol-relative URL naming the host "v1".
  const target = request.url ?? '/';
  const url = new URL(target.startsWith('/') ? `http://local${target}` : target, 'http://local');
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headersDistinct)) {
    if (value && name !== 'cookie') headers[name] = value.join(',');
  }
  // A text body that is not valid UTF-8 travels base64-encoded, so its bytes reach the handler unchanged.
  const asText = textContentType.test(headers['content-type'] ?? 'application/json') && isUtf8(body);
  const host = headers['host'] ?? 'localhost';
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    cookies: request.headers.cookie?.split(/;\s*/),
    headers,
    queryStringParameters: url.search ? Object.fromEntries(url.searchParams) : undefined,
    requestContext: {
      accountId: 'anonymous',
      apiId: 'local',
      domainName: host,
      domainPrefix: host.split('.')[0] ?? host,
      http: {
        method: request.method ?? 'GET',
        path: url.pathname,
        protocol: `HTTP/${request.httpVersion}`,
        sourceIp: request.socket.remoteAddress ?? '127.0.0.1',
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: randomUUID(),
      routeKey: '$default',
      stage: '$default',
      time: new Date(nowMs).toUTCString(),
      timeEpoch: nowMs,
    },
    body: body.length === 0 ? undefined : asText ? body.toString('utf8') : body.toString('base64'),
    isBase64Encoded: body.length > 0 && !asText,
  };
}
