import type { RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { KeyRecord } from '../core/key-record.ts';
import type { McpAccess } from '../core/mcp-access.ts';
import type { McpServerConfig } from '../core/mcp-server-config.ts';
import type { Project } from '../core/project-config.ts';
import type { Attribution } from '../core/usage-record.ts';
import type { GatewayServices } from '../pipeline/gateway-services.ts';
import type { RouteContext } from '../pipeline/route-context.ts';
import type { AnswerFormat } from './answer-format.ts';
import type { UpstreamPool } from './upstream-pool.ts';

/** What the bridge's handlers know about the one HTTP request they serve. */
export interface BridgeContext {
  services: GatewayServices;
  route: RouteContext;
  key: KeyRecord;
  project: Project;
  attribution: Attribution;
  /** The project's servers this key may reach, by name. */
  servers: ReadonlyMap<string, McpServerConfig>;
  access: McpAccess;
  pool: UpstreamPool;
  /** Aborted when the client goes away. */
  signal: AbortSignal;
  format: AnswerFormat;
  /** The request id a tool call's usage record carries, by the call's JSON-RPC id; asked once per call (see callRequestIds). */
  callRequestId(callId: RequestId): string;
  /** Tool calls in flight: a client that goes away is answered only once they are metered. */
  track(work: Promise<unknown>): void;
}

/** The options of one upstream request: the time-out (bounded by a JSON answer's time), and the client's signal. */
export function upstreamRequestOptions(context: BridgeContext) {
  return { timeout: context.pool.stepTimeoutMs(), signal: context.signal };
}
