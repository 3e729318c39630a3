import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, McpError, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { isServerError, markServerErrors } from '../../shared/mcp/server-errors.ts';

/** A message as the SDK's client reads it once markServerErrors has seen it: an error response becomes an McpError from its fields. */
function received(message: JSONRPCMessage): JSONRPCMessage {
  const transport: Transport = { start: async () => {}, send: async () => {}, close: async () => {} };
  markServerErrors(transport);
  transport.onmessage?.(message);
  return message;
}

const asSdkError = (message: JSONRPCMessage) => ('error' in message ? new McpError(message.error.code, message.error.message, message.error.data) : undefined);

describe('markServerErrors', () => {
  it("tells a server's error with the SDK's closed-connection code from the SDK's own, whose message is the same", () => {
    const sent = asSdkError(received({ jsonrpc: '2.0', id: 1, error: { code: ErrorCode.ConnectionClosed, message: 'Connection closed' } }));

    expect(isServerError(sent)).toBe(true);
    expect(isServerError(new McpError(ErrorCode.ConnectionClosed, 'Connection closed'))).toBe(false);
  });

  it("keeps the server's code, message and data", () => {
    const message = received({ jsonrpc: '2.0', id: 1, error: { code: ErrorCode.RequestTimeout, message: 'slow', data: { retryAfter: 60 } } });
    expect(message).toEqual({ jsonrpc: '2.0', id: 1, error: { code: ErrorCode.RequestTimeout, message: 'slow', data: { 'model-gateway/sent-by-server': { retryAfter: 60 } } } });
  });

  it('leaves results, notifications and the error the bridge appends to an answer stream unmarked', () => {
    const appended = received({ jsonrpc: '2.0', id: 1, error: { code: ErrorCode.ConnectionClosed, message: 'ended', data: { 'model-gateway/answer-stream-ended': true } } });
    expect(isServerError(asSdkError(appended))).toBe(false);
    expect(received({ jsonrpc: '2.0', id: 1, result: {} })).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    expect(received({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'x' } })).toEqual({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'x' } });
  });
});
