import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { AnswerStream, GatewayRequest, GatewayResponse } from '../http/gateway-http.ts';

/** A function-URL event (payload format 2.0) as the gateway's framework-free request. */
export function toGatewayRequest(event: APIGatewayProxyEventV2): GatewayRequest {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(event.headers ?? {})) {
    if (value !== undefined) headers[name.toLowerCase()] = value;
  }
  const rawBody = event.body ?? '';
  return {
    method: event.requestContext.http.method.toUpperCase(),
    path: event.rawPath,
    query: new URLSearchParams(event.rawQueryString ?? ''),
    headers,
    body: Buffer.from(rawBody, event.isBase64Encoded ? 'base64' : 'utf8'),
    sourceIp: event.requestContext.http.sourceIp,
  };
}

/** What a middy streaming handler returns: the status line and headers first, then the body as it comes. */
export interface StreamingResult {
  statusCode: number;
  headers: Record<string, string>;
  body: string | AnswerStream;
}

export function toStreamingResult(response: GatewayResponse): StreamingResult & Pick<GatewayResponse, 'afterAnswer'> {
  return { statusCode: response.status, headers: response.headers, body: response.body, ...(response.afterAnswer ? { afterAnswer: response.afterAnswer } : {}) };
}
