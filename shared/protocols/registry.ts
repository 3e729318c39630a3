import type { ClientProtocolId, ConversationProtocolId } from '../core/project-config.ts';
import type { UpstreamProtocol } from './wire-protocol.ts';

/**
 * Every conversation protocol the gateway speaks with providers, each reaching every other through the
 * canonical model: adding one is adding its module here. (Rerank dialects have their own registry:
 * rerank/registry.ts.) Each loads on first use, in a chunk of its own once bundled: a request speaks one
 * or two of them, and a cold start pays only for those its route group's endpoints import themselves
 * (docs/performance.md).
 */
const registeredProtocols: Readonly<Record<ConversationProtocolId, RegisteredProtocol>> = {
  'openai-chat': { carries: 'openai-chat', load: async () => (await import('./openai-chat/openai-chat-protocol.ts')).openAiChatProtocol },
  'anthropic-messages': {
    carries: 'anthropic-messages',
    load: async () => (await import('./anthropic-messages/anthropic-messages-protocol.ts')).anthropicMessagesProtocol,
  },
  'openai-responses': { carries: 'openai-responses', load: async () => (await import('./openai-responses/openai-responses-protocol.ts')).openAiResponsesProtocol },
  'bedrock-anthropic-messages': {
    carries: 'anthropic-messages',
    load: async () => (await import('./bedrock-anthropic-messages/bedrock-anthropic-messages-protocol.ts')).bedrockAnthropicMessagesProtocol,
  },
  'bedrock-converse': { load: async () => (await import('./bedrock-converse/bedrock-converse-protocol.ts')).bedrockConverseProtocol },
};

interface RegisteredProtocol {
  load: () => Promise<UpstreamProtocol>;
  /**
   * The client protocol it carries natively (its `native` carriage: its own; Anthropic's Messages inside
   * Bedrock's InvokeModel), known before it loads, so that a request loads only the protocol its bridge uses.
   */
  carries?: ClientProtocolId;
}

/** The client protocol a protocol carries natively, if any (registeredProtocols). */
export function carriedClientProtocol(id: ConversationProtocolId): ClientProtocolId | undefined {
  return registeredProtocols[id].carries;
}

/** Every conversation protocol: each reaches every other through the canonical model. */
export const REACHABLE_PROTOCOLS = Object.keys(registeredProtocols) as ConversationProtocolId[];

const loadedProtocols = new Map<ConversationProtocolId, UpstreamProtocol>();
const loadingProtocols = new Map<ConversationProtocolId, Promise<UpstreamProtocol>>();

/**
 * Loads the protocols not yet loaded; nothing to wait for (undefined) once they all are, so a warm request
 * takes no extra turn. A load that fails is tried again by the next request.
 */
export function loadWireProtocols(ids: readonly ConversationProtocolId[]): Promise<unknown> | undefined {
  const missing = ids.filter((id) => !loadedProtocols.has(id));
  if (missing.length === 0) return undefined;
  return Promise.all(missing.map(loadWireProtocol));
}

function loadWireProtocol(id: ConversationProtocolId): Promise<UpstreamProtocol> {
  let loading = loadingProtocols.get(id);
  if (!loading) {
    loading = registeredProtocols[id].load().then(
      (protocol) => {
        loadedProtocols.set(id, protocol);
        return protocol;
      },
      (error: unknown) => {
        loadingProtocols.delete(id);
        throw error;
      },
    );
    loadingProtocols.set(id, loading);
  }
  return loading;
}

/** A protocol loaded by loadWireProtocols: asking for another is the caller's mistake. */
export function wireProtocol(id: ConversationProtocolId): UpstreamProtocol {
  const protocol = loadedProtocols.get(id);
  if (!protocol) throw new Error(`The wire protocol "${id}" was used before it was loaded (loadWireProtocols).`);
  return protocol;
}
