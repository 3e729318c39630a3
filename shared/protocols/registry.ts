import type { ConversationProtocolId } from '../core/project-config.ts';
import { anthropicMessagesProtocol } from './anthropic-messages/anthropic-messages-protocol.ts';
import { openAiChatProtocol } from './openai-chat/openai-chat-protocol.ts';
import { openAiResponsesProtocol } from './openai-responses/openai-responses-protocol.ts';
import type { WireProtocol } from './wire-protocol.ts';

/**
 * Every conversation protocol the gateway speaks, each reaching every other through the canonical model:
 * adding one is adding its module here. (Rerank dialects have their own registry: rerank/registry.ts.)
 */
export const wireProtocols: Readonly<Record<ConversationProtocolId, WireProtocol>> = {
  'openai-chat': openAiChatProtocol,
  'anthropic-messages': anthropicMessagesProtocol,
  'openai-responses': openAiResponsesProtocol,
};

export function wireProtocol(id: ConversationProtocolId): WireProtocol {
  return wireProtocols[id];
}
