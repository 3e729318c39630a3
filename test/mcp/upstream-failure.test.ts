import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { CallToolResultSchema, ErrorCode, McpError, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { headerSecrets } from '../../shared/core/header-secrets.ts';
import { AnswerTooLargeError, CutOffAnswerError } from '../../shared/mcp/answer-errors.ts';
import { markServerErrors } from '../../shared/mcp/server-errors.ts';
import { loadUpstreamClient } from '../../shared/mcp/upstream-client.ts';
import { describeUpstreamFailure, toJsonRpcError } from '../../shared/mcp/upstream-failure.ts';

const context = { secrets: ['s3cret-token'], timeoutMs: 2_500, cancelled: false };

// The transport's HTTP errors exist once the bridge has loaded the SDK's client, on its first connection.
beforeAll(async () => {
  await loadUpstreamClient();
});

/** The McpError the SDK's client raises for a JSON-RPC error response the server sent, read through markServerErrors. */
function sentByServer(code: number, message: string): McpError {
  const transport: Transport = { start: async () => {}, send: async () => {}, close: async () => {} };
  markServerErrors(transport);
  const response: JSONRPCMessage = { jsonrpc: '2.0', id: 1, error: { code, message } };
  transport.onmessage?.(response);
  return 'error' in response ? new McpError(response.error.code, response.error.message, response.error.data) : new McpError(code, message);
}

describe('describeUpstreamFailure', () => {
  it("names a time-out with the bridge's time-out", () => {
    expect(describeUpstreamFailure('docs', new McpError(ErrorCode.RequestTimeout, 'Request timed out'), context)).toEqual({
      server: 'docs',
      kind: 'timeout',
      message: 'The MCP server "docs" did not answer within 2.5 s.',
    });
  });

  it('reports a refused connection as unreachable, with its cause', () => {
    const refused = new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED 127.0.0.1:9') });
    expect(describeUpstreamFailure('down', refused, context)).toMatchObject({ kind: 'unavailable', message: 'The MCP server "down" could not be reached: fetch failed: connect ECONNREFUSED 127.0.0.1:9' });
  });

  it('reports an HTTP refusal with its status, any header value it echoes redacted', () => {
    const refusal = new StreamableHTTPError(401, 'Error POSTing to endpoint: token "s3cret-token" is not valid');
    expect(describeUpstreamFailure('docs', refusal, context)).toMatchObject({
      kind: 'unavailable',
      message: 'The MCP server "docs" could not be reached: HTTP 401: token "[redacted]" is not valid',
    });
  });

  it('redacts the token of a bearer header when the server echoes it without its scheme', () => {
    const secrets = headerSecrets({ Authorization: 'Bearer TOKEN-r401-XYZ' });
    const refusal = new StreamableHTTPError(401, 'Error POSTing to endpoint: invalid token TOKEN-r401-XYZ');
    expect(describeUpstreamFailure('r401', refusal, { ...context, secrets }).message).toBe('The MCP server "r401" could not be reached: HTTP 401: invalid token [redacted]');
    const rejected = sentByServer(ErrorCode.InvalidRequest, 'token TOKEN-r401-XYZ rejected');
    expect(describeUpstreamFailure('r401', rejected, { ...context, secrets }).message).toBe('The MCP server "r401" answered with an error: token [redacted] rejected');
  });

  it('reports an answer that is not JSON, or that the MCP schema refuses, as invalid: the server was reached', () => {
    const notJson = (() => {
      try {
        JSON.parse('{not json');
      } catch (error) {
        return error;
      }
    })();
    expect(describeUpstreamFailure('docs', notJson, context)).toMatchObject({ kind: 'invalid', message: expect.stringMatching(/^The MCP server "docs" answered with something that is not valid MCP: not JSON \(/) });
    const refused = CallToolResultSchema.safeParse({ content: 'none', isError: 's3cret-token' }).error;
    expect(describeUpstreamFailure('docs', refused, context)).toEqual({
      server: 'docs',
      kind: 'invalid',
      message: 'The MCP server "docs" answered with something that is not valid MCP: content: Invalid input: expected array, received string (and 1 more)',
    });
  });

  it('reports an answer cut off as interrupted: the server was reached, and its answer broke off', () => {
    expect(describeUpstreamFailure('docs', new CutOffAnswerError('the connection was lost (terminated)'), context)).toEqual({
      server: 'docs',
      kind: 'interrupted',
      message: 'The MCP server "docs" was reached, but its answer was cut off: the connection was lost (terminated)',
    });
  });

  it('reports an answer larger than the bridge takes as too large', () => {
    expect(describeUpstreamFailure('docs', new AnswerTooLargeError('more than the 6 MB the gateway accepts in one answer'), context)).toEqual({
      server: 'docs',
      kind: 'too_large',
      message: 'The MCP server "docs" answered with more than the 6 MB the gateway accepts in one answer.',
    });
  });

  it("keeps the code of a JSON-RPC error the server answered with", () => {
    const failure = describeUpstreamFailure('docs', sentByServer(ErrorCode.InvalidParams, 'query is required'), context);
    expect(failure).toEqual({ server: 'docs', kind: 'error', code: -32602, message: 'The MCP server "docs" answered with an error: query is required' });
    expect(toJsonRpcError(failure)).toMatchObject({ code: -32602, message: failure.message, data: { server: 'docs', reason: 'error' } });
  });

  it("reports the server's own error with the SDK's codes for a closed connection and a time-out as its error, the SDK's own as unreachable and a time-out", () => {
    expect(describeUpstreamFailure('docs', sentByServer(ErrorCode.ConnectionClosed, 'Connection closed'), context)).toEqual({
      server: 'docs',
      kind: 'error',
      code: -32000,
      message: 'The MCP server "docs" answered with an error: Connection closed',
    });
    expect(describeUpstreamFailure('docs', sentByServer(ErrorCode.RequestTimeout, 'Request timed out'), context)).toMatchObject({ kind: 'error', code: -32001 });
    expect(describeUpstreamFailure('docs', new McpError(ErrorCode.ConnectionClosed, 'Connection closed'), context)).toEqual({
      server: 'docs',
      kind: 'unavailable',
      message: 'The MCP server "docs" could not be reached: Connection closed',
    });
    expect(describeUpstreamFailure('docs', new McpError(ErrorCode.RequestTimeout, 'Request timed out'), context)).toMatchObject({ kind: 'timeout' });
  });

  it('says the request was cancelled when the client went away, whatever the error', () => {
    expect(describeUpstreamFailure('docs', new Error('This operation was aborted'), { ...context, cancelled: true }).kind).toBe('cancelled');
  });

  it('gives a JSON-RPC internal error for failures without a code of their own', () => {
    const failure = describeUpstreamFailure('down', new Error('socket hang up'), context);
    expect(toJsonRpcError(failure)).toMatchObject({ code: ErrorCode.InternalError, data: { server: 'down', reason: 'unavailable' } });
  });
});
