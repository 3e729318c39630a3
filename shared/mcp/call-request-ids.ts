import { CallToolRequestSchema, isJSONRPCRequest, type RequestId } from '@modelcontextprotocol/sdk/types.js';

/**
 * The request id of each tool call's usage record, so that `GET /v1/generation?id=` finds every one. A lone
 * message's is the POST's own (`x-request-id`). In a batch, where one header cannot name every call, the
 * message at position n (counted from 1, every message counted) has `<x-request-id>-<n>`, which a client
 * works out from what it sent. A call is known to its handler only by its JSON-RPC id. A batch that repeats
 * a request id (which MCP forbids) is refused before it gets here (read-bridge-message.ts); should one get
 * here, its tool calls take that id's positions in turn, as the SDK hands them to the handler in the
 * batch's order, so no two calls share a record and none is lost. Only calls the SDK hands on (a valid
 * tools/call) hold a position in that queue; the handler asks once per call it is given.
 */
export function callRequestIds(message: unknown, requestId: string): (callId: RequestId) => string {
  if (!Array.isArray(message)) return () => requestId;
  const positions = new Map<RequestId, number[]>();
  message.forEach((entry: unknown, index) => {
    if (!isJSONRPCRequest(entry) || !CallToolRequestSchema.safeParse(entry).success) return;
    positions.set(entry.id, [...(positions.get(entry.id) ?? []), index + 1]);
  });
  return (callId) => {
    const position = positions.get(callId)?.shift();
    return position === undefined ? requestId : `${requestId}-${position}`;
  };
}
