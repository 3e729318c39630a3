import type { KeyRecord } from '../core/key-record.ts';
import type { Project } from '../core/project-config.ts';
import { admitRequestRate } from '../pipeline/admit-usage.ts';
import type { GatewayServices } from '../pipeline/gateway-services.ts';

/** How many tools/call requests a POST's message holds (one JSON-RPC message, or a batch of them); 0 if unreadable. */
export function countToolCalls(message: unknown): number {
  const messages: unknown[] = Array.isArray(message) ? message : [message];
  return messages.filter((entry) => typeof entry === 'object' && entry !== null && 'id' in entry && 'method' in entry && entry.method === 'tools/call').length;
}

/**
 * The request limits of the key and the project count bridged tool calls (the unit the bridge meters),
 * one per call, before any reaches an upstream: over a limit, the whole POST is refused with 429 and
 * Retry-After. Tool calls use no tokens, so token limits do not apply. Returns the rate-limit headers.
 */
export async function admitToolCalls(services: GatewayServices, key: KeyRecord, project: Project, calls: number): Promise<Record<string, string>> {
  return calls === 0 ? {} : admitRequestRate(services, { key, project }, calls);
}
