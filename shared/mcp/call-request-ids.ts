import type { RequestId } from '@modelcontextprotocol/sdk/types.js';

/**
 * The request id of each tool call's usage record, so that `GET /v1/generation?id=` finds every one. A lone
 * message's is the POST's own (`x-request-id`). In a batch, where one header cannot name every call, the
 * message at position n (counted from 1) has `<x-request-id>-<n>`, which a client works out from what it
 * sent. A call is known by the JSON-RPC id the SDK hands its handler; an id a batch repeats (which MCP
 * forbids) keeps its first position.
 */
export function callRequestIds(message: unknown, requestId: string): (callId: RequestId) => string {
  if (!Array.isArray(message)) return () => requestId;
  const positions = new Map<unknown, number>();
  message.forEach((entry: unknown, index) => {
    if (typeof entry === 'object' && entry !== null && 'id' in entry && !positions.has(entry.id)) positions.set(entry.id, index + 1);
  });
  return (callId) => {
    const position = positions.get(callId);
    return position === undefined ? requestId : `${requestId}-${position}`;
  };
}
