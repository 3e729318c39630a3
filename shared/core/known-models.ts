import { anthropicNameOf } from './bedrock-models.ts';
import type { AllowedModel } from './project-config.ts';

/** What clients read to size their prompts and answers (OpenRouter's `context_length`, `max_completion_tokens`). */
export interface ModelLimits {
  /** Prompt and answer together, in tokens. */
  contextLength: number;
  maxOutputTokens: number;
}

/**
 * Published limits of widely used models, by the provider's own model id: the defaults of
 * `model allow --context-length / --max-output-tokens`. docs/decisions/model-limits.md lists them.
 */
export const knownModelLimits: Readonly<Record<string, ModelLimits>> = {
  'gpt-4o': { contextLength: 128_000, maxOutputTokens: 16_384 },
  'gpt-4o-mini': { contextLength: 128_000, maxOutputTokens: 16_384 },
  'gpt-4.1': { contextLength: 1_047_576, maxOutputTokens: 32_768 },
  'gpt-4.1-mini': { contextLength: 1_047_576, maxOutputTokens: 32_768 },
  'gpt-4.1-nano': { contextLength: 1_047_576, maxOutputTokens: 32_768 },
  'gpt-5': { contextLength: 400_000, maxOutputTokens: 128_000 },
  'gpt-5-mini': { contextLength: 400_000, maxOutputTokens: 128_000 },
  'gpt-5-nano': { contextLength: 400_000, maxOutputTokens: 128_000 },
  o3: { contextLength: 200_000, maxOutputTokens: 100_000 },
  'o4-mini': { contextLength: 200_000, maxOutputTokens: 100_000 },
  'claude-haiku-4-5': { contextLength: 200_000, maxOutputTokens: 64_000 },
  'claude-sonnet-4-5': { contextLength: 200_000, maxOutputTokens: 64_000 },
  'claude-opus-4-5': { contextLength: 200_000, maxOutputTokens: 64_000 },
  'claude-opus-4-1': { contextLength: 200_000, maxOutputTokens: 32_000 },
};

/**
 * The table's entry for a model id, whoever serves it: `openai/gpt-4o-mini` (OpenRouter's id), dated
 * snapshots (`gpt-4o-mini-2024-07-18`, `claude-haiku-4-5-20251001`) and Bedrock's ids and inference
 * profiles (`us.anthropic.claude-haiku-4-5-20251001-v1:0`) count as their model.
 */
export function findKnownModelLimits(model: string): ModelLimits | undefined {
  const bare = anthropicNameOf(model) ?? model.slice(model.lastIndexOf('/') + 1);
  const undated = bare.replace(/-(\d{8}|\d{4}-\d{2}-\d{2})$/, '');
  return knownModelLimits[bare] ?? knownModelLimits[undated];
}

/** An allowlisted model's limits: what the admin set, else the table's, else null (unknown). */
export function effectiveModelLimits(entry: AllowedModel): { contextLength: number | null; maxOutputTokens: number | null } {
  const known = findKnownModelLimits(entry.model);
  return {
    contextLength: entry.contextLength ?? known?.contextLength ?? null,
    maxOutputTokens: entry.maxOutputTokens ?? known?.maxOutputTokens ?? null,
  };
}
