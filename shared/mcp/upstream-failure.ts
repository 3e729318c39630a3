import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { redactSecrets } from '../transport/upstream-errors.ts';

/**
 * Why an upstream MCP server gave no answer: it took too long, could not be reached (refused, reset,
 * an HTTP error, a broken stream, its headers unreadable), answered with a JSON-RPC error of its own, or
 * the gateway stopped waiting because its client went away.
 */
export interface UpstreamFailure {
  server: string;
  kind: 'timeout' | 'unavailable' | 'error' | 'cancelled';
  /** Names the server; never holds one of its credentials (header values or their parts: headerSecrets). */
  message: string;
  /** The server's own JSON-RPC error code, for kind `error`. */
  code?: number;
}

function describeCause(error: unknown): string {
  if (error instanceof StreamableHTTPError && error.code !== undefined && error.code > 0) {
    return `HTTP ${error.code}: ${error.message.replace(/^Streamable HTTP error: (Error POSTing to endpoint: )?/, '')}`;
  }
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${error.message}${cause}`.replace(/^MCP error -?\d+: /, '');
}

/** `secrets`: the server's credentials (headerSecrets), taken out of what it said, since errors may echo what they were sent. */
export function describeUpstreamFailure(server: string, error: unknown, context: { secrets: readonly string[]; timeoutMs: number; cancelled: boolean }): UpstreamFailure {
  const said = redactSecrets(describeCause(error), context.secrets).slice(0, 500);
  if (context.cancelled) return { server, kind: 'cancelled', message: `The request to the MCP server "${server}" was cancelled: the client went away.` };
  if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
    return { server, kind: 'timeout', message: `The MCP server "${server}" did not answer within ${Math.round(context.timeoutMs / 100) / 10} s.` };
  }
  if (error instanceof McpError && error.code !== ErrorCode.ConnectionClosed) {
    return { server, kind: 'error', code: error.code, message: `The MCP server "${server}" answered with an error: ${said}` };
  }
  return { server, kind: 'unavailable', message: `The MCP server "${server}" could not be reached: ${said}` };
}

/**
 * A JSON-RPC error the bridge answers with. The SDK's server renders any thrown error from its `code`,
 * `message` and `data`; unlike McpError, the message stays as written (no "MCP error -32602:" prefix).
 */
export class BridgeRpcError extends Error {
  override readonly name = 'BridgeRpcError';
  readonly code: number;
  readonly data?: unknown;

  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.code = code;
    this.data = data;
  }
}

/** The JSON-RPC error a client gets for a failure where the method has no error result of its own. */
export function toJsonRpcError(failure: UpstreamFailure): BridgeRpcError {
  return new BridgeRpcError(failure.code ?? ErrorCode.InternalError, failure.message, { server: failure.server, reason: failure.kind });
}
