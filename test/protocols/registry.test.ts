import { describe, expect, it } from 'vitest';
import { anthropicMessagesProtocol } from '../../shared/protocols/anthropic-messages/anthropic-messages-protocol.ts';
import { bridgeProtocols, type BridgeTarget } from '../../shared/protocols/bridge-plan.ts';
import { editorChatProtocol } from '../../shared/protocols/editor-chat/editor-chat-protocol.ts';
import { openAiChatProtocol } from '../../shared/protocols/openai-chat/openai-chat-protocol.ts';
import { openAiResponsesProtocol } from '../../shared/protocols/openai-responses/openai-responses-protocol.ts';
import { carriedClientProtocol, loadWireProtocols, REACHABLE_PROTOCOLS, wireProtocol } from '../../shared/protocols/registry.ts';
import { NO_EXTRA_FEATURES, OPENAI_FEATURES } from '../support/upstream-features.ts';

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

describe('what a request loads', () => {
  it('says which client protocol each protocol carries natively exactly when the protocol has a native carriage', async () => {
    await loadWireProtocols(REACHABLE_PROTOCOLS);
    for (const id of REACHABLE_PROTOCOLS) expect(Boolean(carriedClientProtocol(id)), id).toBe(Boolean(wireProtocol(id).native));
  });

  it("loads only the protocol a target's bridge uses: the carrier, the translation's unless custom tools may need it, or the dialect's rewrite", () => {
    const openAi: BridgeTarget = { protocols: ['openai-chat', 'openai-responses'], features: OPENAI_FEATURES };
    expect(bridgeProtocols(openAiChatProtocol, openAi)).toEqual(['openai-chat']);
    expect(bridgeProtocols(openAiResponsesProtocol, openAi)).toEqual(['openai-responses']);
    expect(bridgeProtocols(anthropicMessagesProtocol, openAi)).toEqual(['openai-chat']);
    // A Responses body with custom tools goes to a provider without them translated to its first protocol.
    expect(bridgeProtocols(openAiResponsesProtocol, { protocols: ['openai-chat', 'openai-responses'], features: NO_EXTRA_FEATURES })).toEqual(['openai-responses', 'openai-chat']);
    const bedrock: BridgeTarget = { protocols: ['bedrock-anthropic-messages', 'bedrock-converse'], features: NO_EXTRA_FEATURES };
    expect(bridgeProtocols(anthropicMessagesProtocol, bedrock)).toEqual(['bedrock-anthropic-messages']);
    expect(bridgeProtocols(openAiChatProtocol, bedrock)).toEqual(['bedrock-anthropic-messages']);
    // The editor's dialect goes to Responses rewritten where the provider serves it, else translated.
    expect(bridgeProtocols(editorChatProtocol, openAi)).toEqual(['openai-responses']);
    expect(bridgeProtocols(editorChatProtocol, { protocols: ['anthropic-messages'], features: NO_EXTRA_FEATURES })).toEqual(['anthropic-messages']);
  });

  it("translates for a reasoning model of OpenAI's own API to its Responses API (its chat API refuses tools with reasoning), elsewhere to the first protocol", () => {
    const reasoning = { ...OPENAI_FEATURES, reasoningModel: true };
    expect(bridgeProtocols(anthropicMessagesProtocol, { protocols: ['openai-chat', 'openai-responses'], features: reasoning })).toEqual(['openai-responses']);
    // A chat client still goes natively to chat; a provider without the Responses API, and OpenRouter's beta one, keep chat.
    expect(bridgeProtocols(openAiChatProtocol, { protocols: ['openai-chat', 'openai-responses'], features: reasoning })).toEqual(['openai-chat']);
    expect(bridgeProtocols(anthropicMessagesProtocol, { protocols: ['openai-chat'], features: reasoning })).toEqual(['openai-chat']);
    const openRouter = { ...NO_EXTRA_FEATURES, reasoningObject: true, reasoningModel: true };
    expect(bridgeProtocols(anthropicMessagesProtocol, { protocols: ['openai-chat', 'openai-responses'], features: openRouter })).toEqual(['openai-chat']);
  });
});
