import type { ProviderFamily, RerankProtocolId } from './project-config.ts';

/*
 * The providers the gateway knows by name, as plain data with nothing to import at run time (the console's
 * page lists them without loading zod); what they mean for requests is in provider-catalog.ts.
 */

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
  /** Caps chat answers with `max_completion_tokens` (OpenAI's own API: its reasoning models refuse `max_tokens`). */
  maxCompletionTokens?: true;
  /** Reads OpenRouter's `reasoning` object in chat completions (others are sent its effort as `reasoning_effort`). */
  reasoningObject?: true;
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
  openai: { family: 'openai', baseUrl: 'https://api.openai.com/v1', requiresApiKey: true, servesResponses: true, customTools: true, maxCompletionTokens: true },
  anthropic: { family: 'anthropic', baseUrl: 'https://api.anthropic.com/v1', requiresApiKey: true },
  groq: { family: 'openai', baseUrl: 'https://api.groq.com/openai/v1', requiresApiKey: true, unsupportedParameters: ['logprobs', 'top_logprobs', 'logit_bias'] },
  mistral: { family: 'openai', baseUrl: 'https://api.mistral.ai/v1', requiresApiKey: true, unsupportedParameters: ['logit_bias', 'logprobs', 'top_logprobs'] },
  deepseek: { family: 'openai', baseUrl: 'https://api.deepseek.com/v1', requiresApiKey: true, unsupportedParameters: ['logit_bias', 'n'] },
  xai: { family: 'openai', baseUrl: 'https://api.x.ai/v1', requiresApiKey: true, unsupportedParameters: ['logit_bias'] },
  together: { family: 'openai', baseUrl: 'https://api.together.xyz/v1', requiresApiKey: true, reranks: 'jina-rerank' },
  fireworks: { family: 'openai', baseUrl: 'https://api.fireworks.ai/inference/v1', requiresApiKey: true },
  openrouter: { family: 'openai', baseUrl: 'https://openrouter.ai/api/v1', requiresApiKey: true, servesResponses: true, reasoningObject: true },
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
