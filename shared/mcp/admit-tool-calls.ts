import type { KeyRecord } from '../core/key-record.ts';
import type { Project } from '../core/project-config.ts';
import { admitRequestRate } from '../pipeline/admit-usage.ts';
import type { GatewayServices } from '../pipeline/gateway-services.ts';

/** How many tools/call requests a POST body holds (a JSON-RPC message, or a batch of them); 0 if unreadable. */
export function countToolCalls(body: string): number {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return 0; // the MCP transport answers the parse error
  }
  const messages: unknown[] = Array.isArray(parsed) ? parsed : [parsed];
  return messages.filter((message) => typeof message === 'object' && message !== null && 'id' in message && 'method' in message && message.method === 'tools/call').length;
}

/**
 * The request limits of the key and the project count bridged tool calls (the unit the bridge meters),
 * one per call, before any reaches an upstream: over a limit, the whole POST is refused with 429 and
 * Retry-After. Tool calls use no tokens, so token limits do not apply. Returns the rate-limit headers.
 */
export async function admitToolCalls(services: GatewayServices, key: KeyRecord, project: Project, calls: number): Promise<Record<string, string>> {
  return calls === 0 ? {} : admitRequestRate(services, { key, project }, calls);
}
