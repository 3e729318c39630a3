import type { ProviderProtocol } from './project-config.ts';
import { MOCK_PROVIDER } from './provider-catalog.ts';

/**
 * Request parameters that OpenAI-compatible providers document as unsupported. With
 * `provider.require_parameters`, a provider that would drop one of the request's parameters is skipped.
 * Providers not listed support the OpenAI chat parameters.
 */
const unsupportedParameters: Readonly<Record<string, readonly string[]>> = {
  groq: ['logprobs', 'top_logprobs', 'logit_bias'],
  deepseek: ['logit_bias', 'n'],
  mistral: ['logit_bias', 'logprobs', 'top_logprobs'],
  xai: ['logit_bias'],
  gemini: ['logit_bias', 'logprobs', 'top_logprobs', 'frequency_penalty', 'presence_penalty'],
};

/** The request's parameters the provider would not honour. */
export function unsupportedRequestParameters(provider: string, parameters: readonly string[]): string[] {
  const unsupported = unsupportedParameters[provider] ?? [];
  return parameters.filter((parameter) => unsupported.includes(parameter));
}

/** The chat parameters OpenAI-compatible providers honour, as OpenRouter's `supported_parameters` names them. */
const OPENAI_CHAT_PARAMETERS = [
  'max_tokens', 'temperature', 'top_p', 'stop', 'frequency_penalty', 'presence_penalty', 'seed', 'logit_bias',
  'logprobs', 'top_logprobs', 'response_format', 'tools', 'tool_choice', 'parallel_tool_calls',
] as const;

/** What the chat → messages translation carries to an Anthropic-protocol model (the rest it drops and names). */
const ANTHROPIC_CHAT_PARAMETERS = ['max_tokens', 'temperature', 'top_p', 'stop', 'tools', 'tool_choice', 'parallel_tool_calls', 'reasoning_effort'] as const;

/** The offline mock reads only the tools (it calls one when asked: docs/decisions/mock-provider.md). */
const MOCK_PARAMETERS = ['tools', 'tool_choice'] as const;

/** The chat request parameters a model served by this provider honours, for the model list. */
export function supportedChatParameters(provider: string, protocol: ProviderProtocol): string[] {
  if (provider === MOCK_PROVIDER) return [...MOCK_PARAMETERS];
  if (protocol === 'anthropic') return [...ANTHROPIC_CHAT_PARAMETERS];
  const unsupported = unsupportedParameters[provider] ?? [];
  return OPENAI_CHAT_PARAMETERS.filter((parameter) => !unsupported.includes(parameter));
}
