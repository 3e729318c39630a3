import { isConversationProtocol, type ConversationProtocolId, type ProviderConfig, type ProviderFamily, type RerankProtocolId, type WireProtocolId } from './project-config.ts';

export interface KnownProvider {
  /** Its wire protocols and authentication (PROVIDER_FAMILIES). */
  family: ProviderFamily;
  /** Absent for Bedrock, whose runtime endpoint follows the provider's region. */
  baseUrl?: string;
  /** The offline mock needs no credential, nor does Bedrock (its calls are signed with AWS credentials); every other provider does. */
  requiresApiKey: boolean;
  /** Serves OpenAI's Responses API (`POST /responses`) beside chat completions: Responses requests go to it natively. */
  servesResponses?: true;
  /**
   * Takes OpenAI's custom (free-text) tools in chat completions (`{type: "custom", custom: {…}}` tools and
   * calls). Every other chat provider answers them with 400, so they reach it as JSON function tools taking
   * one string, `input` (docs/decisions/custom-tools.md).
   */
  customTools?: true;
  /** Also serves a rerank API at `/rerank` below the same base URL, in this dialect. */
  reranks?: RerankProtocolId;
  /**
   * Request parameters the provider documents as unsupported: with `provider.require_parameters`, a
   * provider that would drop one of the request's parameters is skipped.
   */
  unsupportedParameters?: readonly string[];
}

/** The built-in offline provider: deterministic answers for trying the gateway without any provider account. */
export const MOCK_PROVIDER = 'mock';
export const MOCK_BASE_URL = 'mock://offline/v1';

/**
 * Providers whose protocol and base URL are known, so `provider set` needs only the key.
 * Base URLs end before the protocol's paths (`/chat/completions`, `/messages`).
 */
export const knownProviders: Readonly<Record<string, KnownProvider>> = {
  openai: { family: 'openai', baseUrl: 'https://api.openai.com/v1', requiresApiKey: true, servesResponses: true, customTools: true },
  anthropic: { family: 'anthropic', baseUrl: 'https://api.anthropic.com/v1', requiresApiKey: true },
  groq: { family: 'openai', baseUrl: 'https://api.groq.com/openai/v1', requiresApiKey: true, unsupportedParameters: ['logprobs', 'top_logprobs', 'logit_bias'] },
  mistral: { family: 'openai', baseUrl: 'https://api.mistral.ai/v1', requiresApiKey: true, unsupportedParameters: ['logit_bias', 'logprobs', 'top_logprobs'] },
  deepseek: { family: 'openai', baseUrl: 'https://api.deepseek.com/v1', requiresApiKey: true, unsupportedParameters: ['logit_bias', 'n'] },
  xai: { family: 'openai', baseUrl: 'https://api.x.ai/v1', requiresApiKey: true, unsupportedParameters: ['logit_bias'] },
  together: { family: 'openai', baseUrl: 'https://api.together.xyz/v1', requiresApiKey: true, reranks: 'jina-rerank' },
  fireworks: { family: 'openai', baseUrl: 'https://api.fireworks.ai/inference/v1', requiresApiKey: true },
  openrouter: { family: 'openai', baseUrl: 'https://openrouter.ai/api/v1', requiresApiKey: true, servesResponses: true },
  gemini: {
    family: 'openai',
    baseUrl: 'https://generativelanguage.googleapis.com/v1beta/openai',
    requiresApiKey: true,
    unsupportedParameters: ['logit_bias', 'logprobs', 'top_logprobs', 'frequency_penalty', 'presence_penalty'],
  },
  bedrock: { family: 'bedrock', requiresApiKey: false },
  // Rerank providers (/v1/rerank).
  cohere: { family: 'cohere', baseUrl: 'https://api.cohere.com/v2', requiresApiKey: true },
  jina: { family: 'jina', baseUrl: 'https://api.jina.ai/v1', requiresApiKey: true },
  voyage: { family: 'voyage', baseUrl: 'https://api.voyageai.com/v1', requiresApiKey: true },
  [MOCK_PROVIDER]: { family: 'openai', baseUrl: MOCK_BASE_URL, requiresApiKey: false },
};

/** Azure OpenAI's hosts (classic and AI Foundry), whose `/openai/v1` API serves the Responses API. */
const AZURE_OPENAI_HOST = /\.(openai\.azure\.com|cognitiveservices\.azure\.com|services\.ai\.azure\.com)$/i;

/**
 * Whether an OpenAI-protocol provider serves the Responses API unless told otherwise: OpenAI, OpenRouter
 * and Azure OpenAI do; other OpenAI-compatible servers mostly serve chat completions only.
 */
export function servesResponsesByDefault(provider: string, baseUrl: string): boolean {
  if (knownProviders[provider]?.servesResponses) return true;
  try {
    return AZURE_OPENAI_HOST.test(new URL(baseUrl).hostname);
  } catch {
    return false;
  }
}

/**
 * Whether a provider takes OpenAI's custom tools in chat completions: OpenAI only. OpenRouter and Azure
 * OpenAI serve the Responses API, where the editor and Codex reach them natively; their chat completions
 * serve other vendors' models too, so a custom tool there goes as a function tool, which every model takes.
 */
export function takesCustomTools(provider: string): boolean {
  return knownProviders[provider]?.customTools === true;
}

export function providerRequiresApiKey(provider: string): boolean {
  return knownProviders[provider]?.requiresApiKey ?? true;
}

/**
 * Whether the gateway can authorize calls to a configured provider: with its stored key, by signing them
 * with AWS credentials (a Bedrock provider under any name), or because it needs no credential.
 */
export function canAuthorizeCalls(provider: Pick<ProviderConfig, 'provider' | 'auth' | 'hasApiKey'>): boolean {
  return provider.auth === 'aws-sigv4' || provider.hasApiKey || !providerRequiresApiKey(provider.provider);
}

/** The request's parameters the provider would not honour (providers not listed support them all). */
export function unsupportedRequestParameters(provider: string, parameters: readonly string[]): string[] {
  const unsupported = knownProviders[provider]?.unsupportedParameters ?? [];
  return parameters.filter((parameter) => unsupported.includes(parameter));
}

/** The chat parameters OpenAI-compatible providers honour, as OpenRouter's `supported_parameters` names them. */
const OPENAI_CHAT_PARAMETERS = [
  'max_tokens', 'temperature', 'top_p', 'stop', 'frequency_penalty', 'presence_penalty', 'seed', 'logit_bias',
  'logprobs', 'top_logprobs', 'response_format', 'tools', 'tool_choice', 'parallel_tool_calls',
] as const;

/** What a translation to Anthropic's protocol carries (the rest it drops and names). */
const ANTHROPIC_CHAT_PARAMETERS = ['max_tokens', 'temperature', 'top_p', 'stop', 'tools', 'tool_choice', 'parallel_tool_calls', 'reasoning_effort'] as const;

/** What a translation to the Responses API carries (stop sequences have no Responses form). */
const RESPONSES_CHAT_PARAMETERS = ['max_tokens', 'temperature', 'top_p', 'response_format', 'tools', 'tool_choice', 'parallel_tool_calls', 'reasoning_effort'] as const;

/** What a translation to Bedrock's Converse carries (its inferenceConfig and toolConfig). */
const CONVERSE_CHAT_PARAMETERS = ['max_tokens', 'temperature', 'top_p', 'stop', 'tools', 'tool_choice'] as const;

/** The offline mock reads only the tools (it calls one when asked: docs/decisions/mock-provider.md). */
const MOCK_PARAMETERS = ['tools', 'tool_choice'] as const;

/** What a chat request carries when translated to each upstream protocol (chat itself: see below). */
const TRANSLATED_CHAT_PARAMETERS: Readonly<Record<Exclude<ConversationProtocolId, 'openai-chat'>, readonly string[]>> = {
  'openai-responses': RESPONSES_CHAT_PARAMETERS,
  'anthropic-messages': ANTHROPIC_CHAT_PARAMETERS,
  'bedrock-anthropic-messages': ANTHROPIC_CHAT_PARAMETERS,
  'bedrock-converse': CONVERSE_CHAT_PARAMETERS,
};

/**
 * The chat request parameters a model served over these protocols honours, for the model list: natively
 * over chat completions, else through the translation to the provider's first protocol (the one the
 * bridge takes).
 */
export function supportedChatParameters(provider: string, protocols: readonly WireProtocolId[]): string[] {
  if (provider === MOCK_PROVIDER) return [...MOCK_PARAMETERS];
  const first = protocols.find(isConversationProtocol);
  if (!protocols.includes('openai-chat') && first && first !== 'openai-chat') return [...TRANSLATED_CHAT_PARAMETERS[first]];
  const unsupported = knownProviders[provider]?.unsupportedParameters ?? [];
  return OPENAI_CHAT_PARAMETERS.filter((parameter) => !unsupported.includes(parameter));
}
