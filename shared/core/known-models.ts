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
 * `model allow --context-length / --max-output-tokens`. docs/decisions/model-limits.md lists them. Every
 * one reads images as well as text, which `/v1/models` says of them (list-models.ts): a model added here
 * that does not would need that said apart.
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
  'claude-opus-4-6': { contextLength: 1_000_000, maxOutputTokens: 128_000 },
  'claude-sonnet-4-6': { contextLength: 1_000_000, maxOutputTokens: 128_000 },
  'claude-opus-4-7': { contextLength: 1_000_000, maxOutputTokens: 128_000 },
  'claude-opus-4-8': { contextLength: 1_000_000, maxOutputTokens: 128_000 },
  'claude-sonnet-5': { contextLength: 1_000_000, maxOutputTokens: 128_000 },
  'claude-opus-5': { contextLength: 1_000_000, maxOutputTokens: 128_000 },
  'claude-sonnet-5-5': { contextLength: 1_000_000, maxOutputTokens: 128_000 },
  'claude-opus-5-5': { contextLength: 1_000_000, maxOutputTokens: 128_000 },
  'claude-haiku-5-5': { contextLength: 1_000_000, maxOutputTokens: 128_000 },
  'claude-fable-5-1': { contextLength: 1_000_000, maxOutputTokens: 128_000 },
};

/**
 * Anthropic's undated model ids and the dated snapshot each names, as Anthropic's models overview lists
 * them ("Claude API alias" → "Claude API ID"): the same model under two names. Claude Code sends the dated
 * id of some models (`claude-haiku-4-5-20251001`), owners allow the undated one, or the other way round
 * (docs/decisions/model-resolution.md). Only documented pairs: a snapshot not listed is another model.
 * Models whose id has no date (Claude Opus and Sonnet 4.6 and later) need no entry.
 */
export const claudeSnapshotOfAlias: Readonly<Record<string, string>> = {
  'claude-opus-4-5': 'claude-opus-4-5-20251101',
  'claude-haiku-4-5': 'claude-haiku-4-5-20251001',
  'claude-sonnet-4-5': 'claude-sonnet-4-5-20250929',
  'claude-opus-4-1': 'claude-opus-4-1-20250805',
  'claude-opus-4-0': 'claude-opus-4-20250514',
  'claude-sonnet-4-0': 'claude-sonnet-4-20250514',
  'claude-3-7-sonnet-latest': 'claude-3-7-sonnet-20250219',
  'claude-3-5-haiku-latest': 'claude-3-5-haiku-20241022',
};

const claudeAliasOfSnapshot: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(claudeSnapshotOfAlias).map(([alias, snapshot]) => [snapshot, alias]),
);

/** The other name of a Claude model (its dated snapshot for an alias, its alias for a snapshot), if it has one. */
export function claudeOtherName(model: string): string | undefined {
  return claudeSnapshotOfAlias[model] ?? claudeAliasOfSnapshot[model];
}

/** True when the id is one of Anthropic's dated snapshots with an undated alias. */
export function isClaudeSnapshot(model: string): boolean {
  return claudeAliasOfSnapshot[model] !== undefined;
}

/**
 * The table's entry for a model id, whoever serves it: `openai/gpt-4o-mini` (OpenRouter's id), dated
 * snapshots (`gpt-4o-mini-2024-07-18`, `claude-haiku-4-5-20251001`), Bedrock's ids and inference
 * profiles (`us.anthropic.claude-haiku-4-5-20251001-v1:0`) and OpenRouter's dotted Claude versions
 * (`anthropic/claude-sonnet-4.5`, Anthropic's `claude-sonnet-4-5`) count as their model.
 */
export function findKnownModelLimits(model: string): ModelLimits | undefined {
  const bare = anthropicNameOf(model) ?? model.slice(model.lastIndexOf('/') + 1);
  const undated = bare.replace(/-(\d{8}|\d{4}-\d{2}-\d{2})$/, '');
  return knownModelLimits[bare] ?? knownModelLimits[undated] ?? (/^claude-/.test(undated) ? knownModelLimits[undated.replaceAll('.', '-')] : undefined);
}

/** An allowlisted model's limits: what the admin set, else the table's, else null (unknown). */
export function effectiveModelLimits(entry: AllowedModel): { contextLength: number | null; maxOutputTokens: number | null } {
  const known = findKnownModelLimits(entry.model);
  return {
    contextLength: entry.contextLength ?? known?.contextLength ?? null,
    maxOutputTokens: entry.maxOutputTokens ?? known?.maxOutputTokens ?? null,
  };
}
