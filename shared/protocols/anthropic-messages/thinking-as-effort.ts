import type { CanonicalRequest } from '../../canonical/canonical-request.ts';
import type { DroppedFields } from '../../canonical/dropped-fields.ts';
import { effortNearestBudget } from '../../canonical/reasoning-settings.ts';
import type { AnthropicRequest } from './anthropic-wire-types.ts';

/**
 * Anthropic's effort levels as OpenAI's reasoning efforts. `xhigh` and `max` become `high`: OpenAI's
 * `xhigh` is refused by most of its reasoning models.
 */
const EFFORT_BY_ANTHROPIC_EFFORT: Readonly<Record<string, string>> = { low: 'low', medium: 'medium', high: 'high', xhigh: 'high', max: 'high' };

/**
 * A Messages request's `thinking` and `output_config.effort` as a canonical reasoning effort, for
 * translation to OpenAI's protocols: a budget (`enabled`) as the nearest effort unless an effort is given
 * (the budget kept beside it, for OpenRouter, which takes it as such),
 * adaptive thinking at its effort or the model's default, an effort alone as that effort. It is marked
 * `onlyIfModelReasons`: Anthropic clients (Claude Code) ask for thinking whatever the model, so the writers
 * send it only to models that reason (shared/canonical/reasoning-settings.ts). `disabled` asks for
 * nothing. A thinking type or effort not known here is dropped and named.
 */
export function readThinkingAsEffort(request: AnthropicRequest, dropped: DroppedFields): CanonicalRequest['reasoning'] {
  const { thinking } = request;
  const effortAsked = request.output_config?.effort;
  const effort = effortAsked ? EFFORT_BY_ANTHROPIC_EFFORT[effortAsked] : undefined;
  if (effortAsked && !effort) dropped.add('output_config.effort');
  switch (thinking?.type) {
    case 'disabled':
      return undefined;
    case 'enabled':
      if (!thinking.budget_tokens) break;
      return { effort: effort ?? effortNearestBudget(thinking.budget_tokens), budgetTokens: thinking.budget_tokens, onlyIfModelReasons: true };
    case 'adaptive':
    case undefined:
      return effort || thinking ? { ...(effort ? { effort } : {}), onlyIfModelReasons: true } : undefined;
  }
  dropped.add('thinking');
  return undefined;
}

/** Whether `output_config` holds nothing but what is read: the effort (readThinkingAsEffort) and the format (readOutputFormat). */
export function outputConfigIsRead(request: AnthropicRequest): boolean {
  return Object.keys(request.output_config ?? {}).every((field) => field === 'effort' || field === 'format');
}
