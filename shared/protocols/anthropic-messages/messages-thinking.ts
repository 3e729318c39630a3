import type { CanonicalRequest } from '../../canonical/canonical-request.ts';
import { adaptiveEffortFor } from './adaptive-effort.ts';
import type { AnthropicMessagesRequestBody } from './anthropic-request-types.ts';
import { thinkingModeFor } from './claude-thinking-mode.ts';
import { maxTokensWithThinking, thinkingBudgetFor } from './reasoning-effort-budget.ts';
import { toolLoopLacksThinking } from './tool-loop-thinking.ts';

/**
 * A reasoning effort as thinking, in the form the upstream model takes (claude-thinking-mode.ts): adaptive
 * thinking with the effort's `output_config.effort` (adaptive-effort.ts), or extended thinking with the
 * effort's budget (reasoning-effort-budget.ts); a model without thinking (Claude 3.5 and older) gets none,
 * and the effort is named as dropped. Either way thinking counts inside max_tokens, so max_tokens
 * is raised above the effort's budget when needed and the answer keeps the room the client asked for.
 * Thinking admits no temperature and only a top_p of at least 0.95, so those are dropped with it. No
 * thinking, and the effort dropped, when a tool is forced (refused with a budget; skipped, or refused, by
 * adaptive models), and, with a budget only, inside a tool-use loop whose assistant turn did not start with
 * signed thinking (tool-loop-thinking.ts): adaptive thinking may skip thinking at any step, so Anthropic
 * takes such a turn, and the loop keeps one thinking configuration throughout.
 */
export function writeThinking(body: AnthropicMessagesRequestBody, request: CanonicalRequest, upstreamModel: string, outputTokenLimit?: number): void {
  const effort = request.reasoning?.effort;
  const budget = request.reasoning?.budgetTokens ?? thinkingBudgetFor(effort);
  if (budget === undefined) {
    if (effort && effort !== 'none') request.dropped.add('reasoning_effort');
    return;
  }
  const mode = thinkingModeFor(upstreamModel);
  const forcedTool = body.tool_choice?.type === 'any' || body.tool_choice?.type === 'tool';
  if (mode.type === 'none' || forcedTool || (mode.type === 'budget' && toolLoopLacksThinking(body.messages))) {
    request.dropped.add('reasoning_effort');
    return;
  }
  body.max_tokens = maxTokensWithThinking(body.max_tokens, budget);
  // Raised past the model's maximum output, max_tokens is refused: lowered to it, a budget keeps half of it.
  const capped = outputTokenLimit !== undefined && body.max_tokens > outputTokenLimit;
  if (capped) body.max_tokens = outputTokenLimit;
  if (mode.type === 'adaptive') {
    body.thinking = { type: 'adaptive', display: 'summarized' };
    const level = adaptiveEffortFor(effort, mode);
    if (level) body.output_config = { ...body.output_config, effort: level };
  } else {
    body.thinking = { type: 'enabled', budget_tokens: capped ? Math.min(budget, Math.floor(body.max_tokens / 2)) : budget };
  }
  if (body.temperature !== undefined) {
    delete body.temperature;
    request.dropped.add('temperature');
  }
  if (body.top_p !== undefined && body.top_p < 0.95) {
    delete body.top_p;
    request.dropped.add('top_p');
  }
}
