import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { isJSONRPCErrorResponse, McpError } from '@modelcontextprotocol/sdk/types.js';
import { carriesUnansweredMark } from './answer-stream.ts';

/** Wraps the `data` of a JSON-RPC error a server sent (its own data kept under it). */
const SENT_BY_SERVER = 'model-gateway/sent-by-server';

/**
 * Marks each JSON-RPC error response the server sends as the server's, before the SDK's client reads it.
 * The SDK turns such a response into an McpError, and raises its own failures as McpErrors with the same
 * codes (-32000 when the connection closed, -32001 when it stopped waiting), told apart only by their
 * message, which a server may send too. Set before the client connects: the SDK's client calls a
 * transport's earlier onmessage before its own, with the same message. The error the bridge appends to an
 * answer stream (answer-stream.ts) comes through the transport too, but is not the server's.
 */
export function markServerErrors(transport: Transport): void {
  transport.onmessage = (message) => {
    if (!isJSONRPCErrorResponse(message) || carriesUnansweredMark(message.error.data)) return;
    message.error = { ...message.error, data: { [SENT_BY_SERVER]: message.error.data ?? null } };
  };
}

/** Whether an error is one the server answered with (markServerErrors), whatever its code. */
export function isServerError(error: unknown): error is McpError {
  return error instanceof McpError && typeof error.data === 'object' && error.data !== null && SENT_BY_SERVER in error.data;
}
