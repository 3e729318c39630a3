import type { WireProtocolId } from '../core/project-config.ts';
import { anthropicMessagesProtocol } from './anthropic-messages/anthropic-messages-protocol.ts';
import { openAiChatProtocol } from './openai-chat/openai-chat-protocol.ts';
import { openAiResponsesProtocol } from './openai-responses/openai-responses-protocol.ts';
import type { WireProtocol } from './wire-protocol.ts';

/** Every wire protocol the gateway speaks: adding one is adding its module here. */
export const wireProtocols: Readonly<Record<WireProtocolId, WireProtocol>> = {
  'openai-chat': openAiChatProtocol,
  'anthropic-messages': anthropicMessagesProtocol,
  'openai-responses': openAiResponsesProtocol,
};

export function wireProtocol(id: WireProtocolId): WireProtocol {
  return wireProtocols[id];
}
