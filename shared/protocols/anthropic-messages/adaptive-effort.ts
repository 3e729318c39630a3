import type { ThinkingMode } from './claude-thinking-mode.ts';

/** Anthropic's `output_config.effort` levels, lowest to highest. */
export type AnthropicEffort = 'low' | 'medium' | 'high' | 'xhigh' | 'max';

/**
 * OpenAI's reasoning efforts in Anthropic's words, each to the level of the same name; `minimal`, which
 * Anthropic lacks, to its lowest. `none` asks for no thinking, so it has no level.
 */
const EFFORT_BY_REASONING_EFFORT: Readonly<Record<string, AnthropicEffort>> = {
  minimal: 'low',
  low: 'low',
  medium: 'medium',
  high: 'high',
  xhigh: 'xhigh',
};

/**
 * The `output_config.effort` for a reasoning effort on an adaptive model, or undefined for none, absent or
 * unknown efforts. A model without `xhigh` gets `max` for it, the level above `high` that every adaptive
 * model has.
 */
export function adaptiveEffortFor(effort: string | null | undefined, mode: Extract<ThinkingMode, { type: 'adaptive' }>): AnthropicEffort | undefined {
  const level = effort ? EFFORT_BY_REASONING_EFFORT[effort] : undefined;
  return level === 'xhigh' && !mode.xhigh ? 'max' : level;
}
