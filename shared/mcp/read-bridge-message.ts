import { isJSONRPCRequest, type RequestId } from '@modelcontextprotocol/sdk/types.js';
import { GatewayError } from '../core/errors.ts';
import { exceedsJsonDepth, MAX_JSON_DEPTH } from '../core/json-depth.ts';
import { bodyText, type GatewayRequest } from '../http/gateway-http.ts';

/**
 * The most messages one JSON-RPC batch may hold. A batch's requests run at once, each a call to one or
 * every upstream server, and the rate limits count only its tool calls; MCP dropped batches in 2025-06-18
 * (its clients send one message a POST), and the SDK's transport refuses more than 100 after the bridge
 * has counted them. 32 keeps one POST's fan-out small, and is refused before anything is counted or called.
 */
export const MAX_BATCH_MESSAGES = 32;

/**
 * A POST's JSON-RPC message (or batch), parsed once before the MCP SDK sees it; undefined when the body is
 * not JSON, a parse error the SDK's transport answers itself (400, -32700). A body nested deeper than the
 * gateway accepts is refused here, with the same status and code: the SDK's schemas and handlers recurse
 * into it and run out of stack. An empty batch, one of more than MAX_BATCH_MESSAGES, or one with two
 * requests of one id, is an invalid request (400, -32600).
 */
export function readBridgeMessage(request: Pick<GatewayRequest, 'body'>): unknown {
  let message: unknown;
  try {
    message = JSON.parse(bodyText(request));
  } catch (error) {
    if (error instanceof GatewayError) throw error;
    return undefined;
  }
  if (exceedsJsonDepth(message)) {
    throw new GatewayError('invalid_request', `Parse error: the message nests deeper than the ${MAX_JSON_DEPTH} levels the gateway accepts.`, { code: 'json_too_deep' });
  }
  // JSON-RPC 2.0 §6: an empty array is an invalid request, answered with one error (the SDK accepted it with 202).
  if (Array.isArray(message) && message.length === 0) {
    throw new GatewayError('invalid_request', 'Invalid Request: the batch is empty; send at least one message.', { code: 'empty_batch' });
  }
  if (Array.isArray(message) && message.length > MAX_BATCH_MESSAGES) {
    throw new GatewayError(
      'invalid_request',
      `Invalid Request: a batch may hold at most ${MAX_BATCH_MESSAGES} messages; this one holds ${message.length}. Send the rest in further POSTs.`,
      { code: 'batch_too_large' },
    );
  }
  if (Array.isArray(message)) refuseRepeatedRequestIds(message);
  return message;
}

/**
 * A batch's requests each need an id of their own: their answers are told apart by it, and the SDK's
 * transport keeps one answer per id, so a repeated one would go unanswered. Refused as a whole, before
 * anything is called, rather than answered once (400, -32600).
 */
function refuseRepeatedRequestIds(batch: readonly unknown[]): void {
  const ids = new Set<RequestId>();
  for (const message of batch) {
    // Requests only: a notification has no id, an answer to the server's own request no method.
    if (!isJSONRPCRequest(message)) continue;
    const { id } = message;
    if (ids.has(id)) {
      throw new GatewayError('invalid_request', `Invalid Request: the batch holds more than one request with the id ${JSON.stringify(id)}; each request needs an id of its own, by which its answer is told apart.`, {
        code: 'repeated_request_id',
      });
    }
    ids.add(id);
  }
}
