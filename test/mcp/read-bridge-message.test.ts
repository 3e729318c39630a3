import { describe, expect, it } from 'vitest';
import { MAX_BATCH_MESSAGES, readBridgeMessage } from '../../shared/mcp/read-bridge-message.ts';

const body = (text: string) => ({ body: new TextEncoder().encode(text) });

describe('readBridgeMessage', () => {
  it('parses a message or a batch', () => {
    expect(readBridgeMessage(body('{"jsonrpc":"2.0","id":1,"method":"ping"}'))).toEqual({ jsonrpc: '2.0', id: 1, method: 'ping' });
    expect(readBridgeMessage(body('[{"jsonrpc":"2.0","id":1,"method":"ping"}]'))).toHaveLength(1);
  });

  it('leaves a body that is not JSON to the transport, which answers its parse error', () => {
    expect(readBridgeMessage(body('{"jsonrpc": '))).toBeUndefined();
  });

  it('refuses a message nested deeper than the gateway accepts with 400 json_too_deep, before the SDK recurses into it', () => {
    const deep = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"docs__search","arguments":${'['.repeat(200_000)}${']'.repeat(200_000)}}}`;
    expect(() => readBridgeMessage(body(deep))).toThrow(expect.objectContaining({ status: 400, code: 'json_too_deep' }));
  });

  it('refuses a body that is not UTF-8 with 400 invalid_utf8', () => {
    expect(() => readBridgeMessage({ body: new Uint8Array([0x7b, 0xff, 0x7d]) })).toThrow(expect.objectContaining({ status: 400, code: 'invalid_utf8' }));
  });

  it('refuses a batch of more messages than the bridge takes with 400 batch_too_large, and takes one of exactly that many', () => {
    const batch = (size: number) => JSON.stringify(Array.from({ length: size }, (_, index) => ({ jsonrpc: '2.0', id: index, method: 'tools/call', params: { name: 'docs__search' } })));
    expect(readBridgeMessage(body(batch(MAX_BATCH_MESSAGES)))).toHaveLength(MAX_BATCH_MESSAGES);
    expect(() => readBridgeMessage(body(batch(MAX_BATCH_MESSAGES + 1)))).toThrow(expect.objectContaining({ status: 400, code: 'batch_too_large' }));
  });
  it('refuses a batch holding two requests with one id with 400 repeated_request_id; notifications and answers have no id of a request', () => {
    const request = (id: number | string) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'docs__search' } });
    expect(() => readBridgeMessage(body(JSON.stringify([request(1), request(2), request(1)])))).toThrow(expect.objectContaining({ status: 400, code: 'repeated_request_id' }));
    expect(() => readBridgeMessage(body(JSON.stringify([request('a'), request('a')])))).toThrow(expect.objectContaining({ message: expect.stringContaining('the id "a"') }));
    // 1 and "1" are different ids; a cancellation names its request in params, an answer to the server has no method.
    const cancel = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } };
    const answer = { jsonrpc: '2.0', id: 1, result: {} };
    expect(readBridgeMessage(body(JSON.stringify([request(1), request('1'), cancel, answer])))).toHaveLength(4);
  });
});
