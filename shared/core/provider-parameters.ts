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
