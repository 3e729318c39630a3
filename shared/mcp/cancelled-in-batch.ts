import { CancelledNotificationSchema, isJSONRPCNotification, isJSONRPCRequest, type RequestId } from '@modelcontextprotocol/sdk/types.js';

/** The request ids a batch's own `notifications/cancelled` name. */
function cancelledIds(messages: readonly unknown[]): Set<RequestId> {
  const ids = new Set<RequestId>();
  for (const message of messages) {
    if (!isJSONRPCNotification(message)) continue;
    const cancelled = CancelledNotificationSchema.safeParse(message);
    if (cancelled.success && cancelled.data.params.requestId !== undefined) ids.add(cancelled.data.params.requestId);
  }
  return ids;
}

/**
 * A batch without the requests that a `notifications/cancelled` of the same batch names. The SDK's server
 * dispatches a batch's cancellations before any handler runs, so such a request is cancelled before it
 * begins: it gets no answer, as MCP has it, but the SDK's transport holds the POST open for that answer
 * (with keep-alives, on SSE) until the client or the function gives up. Taken out here, it is neither
 * called nor awaited, and the rest of the batch is answered (a batch left with notifications only is 202).
 * Every request with a cancelled id goes: MCP forbids repeating an id, and one left in would be cancelled
 * in its place. The notifications stay; the SDK ignores a cancellation of a request it has not seen.
 */
export function withoutCancelledRequests(message: unknown): unknown {
  if (!Array.isArray(message)) return message;
  const cancelled = cancelledIds(message);
  if (cancelled.size === 0) return message;
  return message.filter((entry: unknown) => !(isJSONRPCRequest(entry) && cancelled.has(entry.id)));
}
