import type { CanonicalRequest } from './canonical-request.ts';

/**
 * For a writer whose protocol takes a reasoning effort but no token budget (chat's `reasoning_effort`, the
 * Responses API's `reasoning.effort`): a budget asked for without an effort (OpenRouter's
 * `reasoning.max_tokens` alone) is named as dropped, not lost in silence.
 */
export function dropBudgetWithoutEffort(request: CanonicalRequest): void {
  if (request.reasoning?.budgetTokens !== undefined && !request.reasoning.effort) request.dropped.add('reasoning.max_tokens');
}
