import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../shared/core/errors.ts';
import { renderMcpError } from '../../shared/mcp/mcp-errors.ts';

describe('renderMcpError', () => {
  it('answers a refusal with its HTTP status and a JSON-RPC error without id', () => {
    const response = renderMcpError(new GatewayError('permission', 'MCP is off.', { code: 'mcp_disabled' }), { 'x-request-id': 'gen-1' });
    expect(response.status).toBe(403);
    expect(response.headers).toMatchObject({ 'content-type': 'application/json', 'x-request-id': 'gen-1' });
    expect(JSON.parse(String(response.body))).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32003, message: 'MCP is off.', data: { type: 'permission', code: 'mcp_disabled', status: 403 } },
    });
  });

  it('challenges a missing key with Bearer, and keeps the headers of the error (Retry-After)', () => {
    expect(renderMcpError(new GatewayError('authentication', 'No key.', { code: 'missing_key' }), {}).headers['www-authenticate']).toBe('Bearer realm="model-gateway"');
    const limited = renderMcpError(new GatewayError('rate_limited', 'Slow down.', { code: 'requests_rate_limited', headers: { 'retry-after': '7' } }), {});
    expect(limited.status).toBe(429);
    expect(limited.headers['retry-after']).toBe('7');
  });

  it('answers a body it cannot read as JSON (nested too deep, not UTF-8) with 400 and a JSON-RPC parse error, as the transport does', () => {
    for (const code of ['json_too_deep', 'invalid_utf8']) {
      const response = renderMcpError(new GatewayError('invalid_request', 'Parse error.', { code }), {});
      expect(response.status).toBe(400);
      expect(JSON.parse(String(response.body))).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700, data: { code } } });
    }
  });

  it('never shows the message of an internal error', () => {
    const response = renderMcpError(new GatewayError('internal', 'stack details /var/task', { code: 'internal_error' }), {});
    expect(String(response.body)).not.toContain('/var/task');
  });
});
