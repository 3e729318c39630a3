import type { ClientProtocolId } from '../core/project-config.ts';
import { anthropicMessagesProtocol } from './anthropic-messages/anthropic-messages-protocol.ts';
import { openAiChatProtocol } from './openai-chat/openai-chat-protocol.ts';
import { openAiResponsesProtocol } from './openai-responses/openai-responses-protocol.ts';
import type { WireProtocol } from './wire-protocol.ts';

/**
 * The protocols clients speak to the gateway, each also spoken with providers, loaded together: for the
 * local host's own answers (host-errors.ts). A route group's endpoints import their own client protocol,
 * and the pipeline loads the upstream ones it needs from the registry (registry.ts).
 */
const clientProtocols: Readonly<Record<ClientProtocolId, WireProtocol>> = {
  'openai-chat': openAiChatProtocol,
  'anthropic-messages': anthropicMessagesProtocol,
  'openai-responses': openAiResponsesProtocol,
};

export function clientProtocol(id: ClientProtocolId): WireProtocol {
  return clientProtocols[id];
}
