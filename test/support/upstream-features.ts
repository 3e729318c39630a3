import type { UpstreamFeatures } from '../../shared/protocols/wire-protocol.ts';

/** A provider that takes nothing beyond its protocol: no custom tools, `max_tokens`, no known output limit. */
export const NO_EXTRA_FEATURES: UpstreamFeatures = { customTools: false, maxCompletionTokens: false, reasoningObject: false };

/** OpenAI's own API: custom tools and `max_completion_tokens` (known-providers.ts). */
export const OPENAI_FEATURES: UpstreamFeatures = { customTools: true, maxCompletionTokens: true, reasoningObject: false };
