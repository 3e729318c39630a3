import type { GatewayError } from '../core/errors.ts';

/** What the route group knows about a request before its handler runs. */
export interface RouteContext {
  /** The client's X-Request-ID, or a generated `gen-…` id; also the generation lookup id. */
  requestId: string;
  /** When the request arrived (ms since the epoch): latency is measured from here. */
  receivedAt: number;
  /**
   * Defers work until the answer has ended, where the host runs it before the invocation ends (see
   * GatewayResponse.afterAnswer). Absent, the work is done at once.
   */
  afterAnswer?: (work: () => Promise<void>) => void;
  /**
   * Logs a failure the client's answer cannot tell with a status, since its head went out before (a body
   * relayed unmetered, cut off): the route group's error reporter, naming the request. Absent, not logged.
   */
  reportError?: (error: GatewayError) => void;
}
