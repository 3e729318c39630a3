import { describe, expect, it } from 'vitest';
import { countToolCalls } from '../../shared/mcp/admit-tool-calls.ts';

const call = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'docs__search' } });

describe('countToolCalls', () => {
  it('counts the tools/call requests of a message or a batch', () => {
    expect(countToolCalls(call(1))).toBe(1);
    expect(countToolCalls([call(1), call(2), { jsonrpc: '2.0', id: 3, method: 'tools/list' }])).toBe(2);
  });

  it('counts no notifications, other methods or unreadable bodies', () => {
    expect(countToolCalls({ jsonrpc: '2.0', method: 'tools/call', params: {} })).toBe(0);
    expect(countToolCalls({ jsonrpc: '2.0', id: 1, method: 'initialize' })).toBe(0);
    expect(countToolCalls(undefined)).toBe(0);
    expect(countToolCalls(null)).toBe(0);
  });
});
