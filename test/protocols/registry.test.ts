import { describe, expect, it } from 'vitest';
import { loadWireProtocols, REACHABLE_PROTOCOLS, wireProtocol } from '../../shared/protocols/registry.ts';

describe('the wire protocol registry', () => {
  it('loads a protocol on first use, and then has nothing left to wait for', async () => {
    expect(() => wireProtocol('bedrock-converse')).toThrow(/"bedrock-converse" was used before it was loaded/);
    const loading = loadWireProtocols(['bedrock-converse']);
    expect(loading).toBeInstanceOf(Promise);
    await loading;
    expect(wireProtocol('bedrock-converse').id).toBe('bedrock-converse');
    expect(loadWireProtocols(['bedrock-converse'])).toBeUndefined();
  });

  it('loads every conversation protocol under its own id', async () => {
    await loadWireProtocols(REACHABLE_PROTOCOLS);
    expect(REACHABLE_PROTOCOLS.map((id) => wireProtocol(id).id)).toEqual(REACHABLE_PROTOCOLS);
    expect(loadWireProtocols(REACHABLE_PROTOCOLS)).toBeUndefined();
  });
});
