import type { ProviderProtocol } from './project-config.ts';

export interface KnownProvider {
  protocol: ProviderProtocol;
  baseUrl: string;
  /** The offline mock needs no credential; every real provider does. */
  requiresApiKey: boolean;
}

/** The built-in offline provider: deterministic answers for trying the gateway without any provider account. */
export const MOCK_PROVIDER = 'mock';
export const MOCK_BASE_URL = 'mock://offline/v1';

/**
 * Providers whose protocol and base URL are known, so `provider set` needs only the key.
 * Base URLs end before the protocol's paths (`/chat/completions`, `/messages`).
 */
export const knownProviders: Readonly<Record<string, KnownProvider>> = {
  openai: { protocol: 'openai', baseUrl: 'https://api.openai.com/v1', requiresApiKey: true },
  anthropic: { protocol: 'anthropic', baseUrl: 'https://api.anthropic.com/v1', requiresApiKey: true },
  groq: { protocol: 'openai', baseUrl: 'https://api.groq.com/openai/v1', requiresApiKey: true },
  mistral: { protocol: 'openai', baseUrl: 'https://api.mistral.ai/v1', requiresApiKey: true },
  deepseek: { protocol: 'openai', baseUrl: 'https://api.deepseek.com/v1', requiresApiKey: true },
  xai: { protocol: 'openai', baseUrl: 'https://api.x.ai/v1', requiresApiKey: true },
  together: { protocol: 'openai', baseUrl: 'https://api.together.xyz/v1', requiresApiKey: true },
  fireworks: { protocol: 'openai', baseUrl: 'https://api.fireworks.ai/inference/v1', requiresApiKey: true },
  openrouter: { protocol: 'openai', baseUrl: 'https://openrouter.ai/api/v1', requiresApiKey: true },
  gemini: {
    protocol: 'openai',
    baseUrl: 'https://generativelanguage.googleapis.com/v1beta/openai',
    requiresApiKey: true,
  },
  [MOCK_PROVIDER]: { protocol: 'openai', baseUrl: MOCK_BASE_URL, requiresApiKey: false },
};

export function providerRequiresApiKey(provider: string): boolean {
  return knownProviders[provider]?.requiresApiKey ?? true;
}
