import type { ClientProtocolId, ConversationProtocolId } from '../core/project-config.ts';
import { anthropicMessagesProtocol } from './anthropic-messages/anthropic-messages-protocol.ts';
import { bedrockAnthropicMessagesProtocol } from './bedrock-anthropic-messages/bedrock-anthropic-messages-protocol.ts';
import { bedrockConverseProtocol } from './bedrock-converse/bedrock-converse-protocol.ts';
import { openAiChatProtocol } from './openai-chat/openai-chat-protocol.ts';
import { openAiResponsesProtocol } from './openai-responses/openai-responses-protocol.ts';
import type { UpstreamProtocol, WireProtocol } from './wire-protocol.ts';

/** The protocols clients speak to the gateway, each also spoken with providers. */
export const clientProtocols: Readonly<Record<ClientProtocolId, WireProtocol>> = {
  'openai-chat': openAiChatProtocol,
  'anthropic-messages': anthropicMessagesProtocol,
  'openai-responses': openAiResponsesProtocol,
};

/**
 * Every conversation protocol the gateway speaks with providers, each reaching every other through the
 * canonical model: adding one is adding its module here. (Rerank dialects have their own registry:
 * rerank/registry.ts.)
 */
export const wireProtocols: Readonly<Record<ConversationProtocolId, UpstreamProtocol>> = {
  ...clientProtocols,
  'bedrock-anthropic-messages': bedrockAnthropicMessagesProtocol,
  'bedrock-converse': bedrockConverseProtocol,
};

/** Every conversation protocol: each reaches every other through the canonical model. */
export const REACHABLE_PROTOCOLS = Object.keys(wireProtocols) as ConversationProtocolId[];

export function wireProtocol(id: ConversationProtocolId): UpstreamProtocol {
  return wireProtocols[id];
}

export function clientProtocol(id: ClientProtocolId): WireProtocol {
  return clientProtocols[id];
}
