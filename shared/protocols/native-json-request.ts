import { GATEWAY_ONLY_FIELDS } from '../pipeline/generation-endpoint.ts';
import type { UpstreamRequest } from './bridge.ts';

/** A JSON request as the provider receives it natively: the client's body with the provider's model id, gateway-only fields removed. */
export function nativeJsonRequest(path: string, body: Record<string, unknown>, upstreamModel: string, extra: Record<string, unknown> = {}): UpstreamRequest {
  const upstream: Record<string, unknown> = { ...body, model: upstreamModel, ...extra };
  for (const field of GATEWAY_ONLY_FIELDS) delete upstream[field];
  const streaming = body.stream === true;
  return { path, headers: { 'content-type': 'application/json', accept: streaming ? 'text/event-stream' : '*/*' }, body: JSON.stringify(upstream) };
}
