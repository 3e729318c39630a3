import { GatewayError } from '../core/errors.ts';
import { exceedsJsonDepth, MAX_JSON_DEPTH } from '../core/json-depth.ts';
import { bodyText, type GatewayRequest } from '../http/gateway-http.ts';

/**
 * A POST's JSON-RPC message (or batch), parsed once before the MCP SDK sees it; undefined when the body is
 * not JSON, a parse error the SDK's transport answers itself (400, -32700). A body nested deeper than the
 * gateway accepts is refused here, with the same status and code: the SDK's schemas and handlers recurse
 * into it and run out of stack.
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
  return message;
}
