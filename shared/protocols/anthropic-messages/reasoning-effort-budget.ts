/**
 * Thinking budgets for OpenAI's `reasoning_effort`, in tokens. Anthropic's minimum budget is 1024; the
 * steps grow about fourfold so each level is a noticeably deeper think. `none` turns thinking off. Adaptive
 * models take no budget, but their max_tokens makes the same room for thinking (messages-thinking.ts).
 */
export const THINKING_BUDGET_BY_EFFORT: Readonly<Record<string, number>> = {
  minimal: 1024,
  low: 1024,
  medium: 4096,
  high: 16384,
  xhigh: 32768,
};

/** The max_tokens used when a chat client sets none (Anthropic requires one). */
export const DEFAULT_MAX_TOKENS = 4096;

/**
 * The max_tokens a streamed request without a cap gets on a model whose maximum output is known (at most
 * that): what Claude Code asks of every Claude model. A coding agent that sets no cap (Codex) would
 * otherwise have its answers cut at 4,096 tokens. A request answered whole keeps DEFAULT_MAX_TOKENS: an
 * answer that long, written before its first byte, would outlast the upstream's first-byte time-out.
 */
export const STREAMED_DEFAULT_MAX_TOKENS = 32_000;

/** The thinking budget for a reasoning effort, or undefined for none, absent or unknown efforts. */
export function thinkingBudgetFor(effort: string | null | undefined): number | undefined {
  return effort ? THINKING_BUDGET_BY_EFFORT[effort] : undefined;
}

/**
 * The largest thinking budget a translation to Claude may take from an OpenAI-style request's reasoning
 * settings (`reasoning_effort`, a `reasoning` object's `effort`, `max_tokens` or `enabled: true`), for the
 * prepaid reservation: max_tokens is raised above the budget (maxTokensWithThinking). Every setting sent
 * counts, so odd combinations reserve more, never less. Undefined when none asks for thinking.
 */
export function thinkingBudgetBound(effort: unknown, reasoning: Readonly<Record<string, unknown>> | null | undefined): number | undefined {
  // Most requests ask for no reasoning: answered without building a list (it runs on every chat request).
  if (effort === undefined && !reasoning) return undefined;
  const budgets = [
    typeof effort === 'string' ? thinkingBudgetFor(effort) : undefined,
    typeof reasoning?.effort === 'string' ? thinkingBudgetFor(reasoning.effort) : undefined,
    typeof reasoning?.max_tokens === 'number' && reasoning.max_tokens > 0 ? reasoning.max_tokens : undefined,
    reasoning?.enabled === true ? thinkingBudgetFor('medium') : undefined,
  ].filter((budget): budget is number => budget !== undefined);
  return budgets.length > 0 ? Math.max(...budgets) : undefined;
}

/**
 * Anthropic counts thinking inside max_tokens and requires budget < max_tokens. A max_tokens that leaves
 * no room above the budget is raised to budget + that max_tokens, so the answer keeps the room the client
 * asked for; a larger one stays as the client set it.
 */
export function maxTokensWithThinking(maxTokens: number, budget: number): number {
  return maxTokens > budget ? maxTokens : budget + maxTokens;
}
