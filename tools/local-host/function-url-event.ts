import type { IncomingMessage } from 'node:http';
import { isUtf8 } from 'node:buffer';
import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';

const textContentType = /^(text\/|application\/(json|[\w.+-]*\+json|xml|x-www-form-urlencoded|javascript))/i;

/** Builds the payload-2.0 event a function URL would deliver for this request. */
export function buildFunctionUrlEvent(request: IncomingMessage, body: Buffer, nowMs: number): APIGatewayProxyEventV2 {
  const target = absoluteFormToOrigin(request.url ?? '/');
  const queryAt = target.indexOf('?');
  const path = queryAt === -1 ? target : target.slice(0, queryAt);
  const query = queryAt === -1 ? '' : target.slice(queryAt + 1);
  // Function URLs join a repeated header's values with commas and pass cookies apart.
  const headers: Record<string, string> = {};
  const raw = request.rawHeaders;
  for (let index = 0; index < raw.length; index += 2) {
    const name = (raw[index] as string).toLowerCase();
    if (name === 'cookie') continue;
    const value = raw[index + 1] as string;
    headers[name] = name in headers ? `${headers[name]},${value}` : value;
  }
  // A text body that is not valid UTF-8 travels base64-encoded, so its bytes reach the handler unchanged.
  const asText = textContentType.test(headers['content-type'] ?? 'application/json') && isUtf8(body);
  const host = headers['host'] ?? 'localhost';
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath: path,
    rawQueryString: query,
    cookies: request.headers.cookie?.split(/;\s*/),
    headers,
    queryStringParameters: query ? Object.fromEntries(new URLSearchParams(query)) : undefined,
    requestContext: {
      accountId: 'anonymous',
      apiId: 'local',
      domainName: host,
      domainPrefix: host.split('.')[0] ?? host,
      http: {
        method: request.method ?? 'GET',
        path,
        protocol: `HTTP/${request.httpVersion}`,
        sourceIp: request.socket.remoteAddress ?? '127.0.0.1',
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: randomUUID(),
      routeKey: '$default',
      stage: '$default',
      time: requestTime(nowMs),
      timeEpoch: nowMs,
    },
    body: body.length === 0 ? undefined : asText ? body.toString('utf8') : body.toString('base64'),
    isBase64Encoded: body.length > 0 && !asText,
  };
}

let cachedSecond = -1;
let cachedTime = '';
/** The event's `time`, as function URLs write it (`23/Nov/2026:04:10:20 +0000`); one string per second. */
function requestTime(nowMs: number): string {
  const second = Math.floor(nowMs / 1000);
  if (second !== cachedSecond) {
    const date = new Date(second * 1000);
    const [, day, month, year, clock] = /^\w+, (\d+) (\w+) (\d+) (\S+)/.exec(date.toUTCString()) ?? [];
    cachedTime = `${day}/${month}/${year}:${clock} +0000`;
    cachedSecond = second;
  }
  return cachedTime;
}

/** A request target in absolute form (`GET http://host/v1/models`, as proxies send) reduced to its path and query. */
function absoluteFormToOrigin(target: string): string {
  if (target.startsWith('/')) return target;
  const url = new URL(target, 'http://local');
  return `${url.pathname}${url.search}`;
}
