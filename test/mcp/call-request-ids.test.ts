import { describe, expect, it } from 'vitest';
import { callRequestIds } from '../../shared/mcp/call-request-ids.ts';

const call = (id: string | number) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'docs__search' } });

describe('callRequestIds', () => {
  it("gives a lone message's call the POST's request id", () => {
    expect(callRequestIds(call(1), 'gen-abc')(1)).toBe('gen-abc');
  });

  it('gives each message of a batch the request id and its position, counted from 1 over every message', () => {
    const ids = callRequestIds([{ jsonrpc: '2.0', id: 'list', method: 'tools/list' }, { jsonrpc: '2.0', method: 'notifications/initialized' }, call('a'), call(7)], 'gen-abc');
    expect([ids('a'), ids(7)]).toEqual(['gen-abc-3', 'gen-abc-4']);
  });

  it('tells a numeric id from the same digits as a string', () => {
    const ids = callRequestIds([call(1), call('1')], 'gen-abc');
    expect([ids('1'), ids(1)]).toEqual(['gen-abc-2', 'gen-abc-1']);
  });

  it("gives the calls that repeat an id that id's positions in turn, so no two share a record", () => {
    const ids = callRequestIds([call(1), { jsonrpc: '2.0', id: 1, method: 'tools/list' }, call(2), call(1), call(1)], 'gen-abc');
    expect([ids(1), ids(2), ids(1), ids(1)]).toEqual(['gen-abc-1', 'gen-abc-3', 'gen-abc-4', 'gen-abc-5']);
  });

  it('gives no position to a tools/call the SDK refuses before the handler (no tool name), so the calls after it keep theirs', () => {
    const ids = callRequestIds([{ jsonrpc: '2.0', id: 1, method: 'tools/call', params: {} }, call(1)], 'gen-abc');
    expect(ids(1)).toBe('gen-abc-2');
  });
});
