import { isConversationProtocol, type ConversationProtocolId, type WireProtocolId } from '../core/project-config.ts';
import { carriedClientProtocol } from './registry.ts';
import { isClientDialect, type ClientProtocol, type DialectRewrite, type UpstreamFeatures } from './wire-protocol.ts';

/** The provider a bridge leads to, as far as a bridge cares: the protocols it speaks for the model, and what it takes beyond them. */
export interface BridgeTarget {
  protocols: readonly WireProtocolId[];
  features: UpstreamFeatures;
}

/**
 * Which protocols of the registry a target's bridge may use, known before they load (registry.ts):
 * a client dialect's rewrite to a protocol the provider speaks; the protocol that carries the client's
 * natively; the one a translation goes to (translationTarget).
 */
interface BridgePlan {
  rewrite?: DialectRewrite;
  carrier?: ConversationProtocolId;
  translatedTo: ConversationProtocolId;
}

export function planBridge(client: ClientProtocol, target: Pick<BridgeTarget, 'protocols' | 'features'>): BridgePlan {
  const conversational = target.protocols.filter(isConversationProtocol);
  if (isClientDialect(client)) {
    const rewrite = client.rewrites.find((candidate) => conversational.includes(candidate.upstream));
    const translatedTo = conversational[0] ?? client.rewrites[0]?.upstream ?? 'openai-chat';
    return rewrite ? { rewrite, translatedTo } : { translatedTo };
  }
  const carrier = conversational.find((id) => carriedClientProtocol(id) === client.id);
  const translatedTo = translationTarget(conversational, target) ?? client.id;
  return carrier ? { carrier, translatedTo } : { translatedTo };
}

/**
 * The protocol a translation goes to: the provider's first conversation protocol, except that OpenAI's own
 * API (OpenAI, Azure OpenAI) gets a reasoning model's translation on its Responses API where it serves it.
 * Its chat completions refuse function tools with reasoning for GPT-5.2 and later ("Function tools with
 * reasoning_effort are not supported for gpt-5.5 in /v1/chat/completions. Please use /v1/responses
 * instead."), and Claude Code always sends tools; OpenAI recommends the Responses API for its reasoning
 * models anyway. Other servers (OpenRouter's Responses API is a beta) keep their first protocol.
 */
function translationTarget(conversational: readonly ConversationProtocolId[], target: Pick<BridgeTarget, 'features'>): ConversationProtocolId | undefined {
  const { reasoningModel, maxCompletionTokens: openAiOwnApi } = target.features;
  if (reasoningModel === true && openAiOwnApi && conversational.includes('openai-responses')) return 'openai-responses';
  return conversational[0];
}

/**
 * The protocols chooseBridge may use for a target, to load before it is called: the rewrite's, or the
 * carrier's (and, unless the provider takes custom tools, the translation's, which a body using them
 * needs), or the translation's.
 */
export function bridgeProtocols(client: ClientProtocol, target: BridgeTarget): ConversationProtocolId[] {
  const plan = planBridge(client, target);
  if (plan.rewrite) return [plan.rewrite.upstream];
  if (!plan.carrier) return [plan.translatedTo];
  return target.features.customTools || plan.carrier === plan.translatedTo ? [plan.carrier] : [plan.carrier, plan.translatedTo];
}
