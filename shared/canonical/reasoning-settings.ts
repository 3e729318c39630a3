import { isOpenAiReasoningModel } from '../core/reasoning-models.ts';
import type { CanonicalRequest } from './canonical-request.ts';

/**
 * What a writer knows of its upstream that decides these settings (the protocols' UpstreamFeatures, by
 * the same names): the admin's mark of an OpenAI reasoning model, OpenRouter's reasoning object, OpenAI's
 * own API.
 */
export interface UpstreamReasoningFacts {
  reasoningModel?: boolean;
  reasoningObject?: boolean;
  maxCompletionTokens?: boolean;
}

/**
 * For a writer whose protocol takes a reasoning effort but no token budget (chat's `reasoning_effort`, the
 * Responses API's `reasoning.effort`): a budget asked for without an effort (OpenRouter's
 * `reasoning.max_tokens` alone) is named as dropped, not lost in silence.
 */
export function dropBudgetWithoutEffort(request: CanonicalRequest): void {
  if (request.reasoning?.budgetTokens !== undefined && !request.reasoning.effort) request.dropped.add('reasoning.max_tokens');
}

/**
 * A thinking budget as the reasoning effort whose budget is nearest on the gateway's scale
 * (anthropic-messages/reasoning-effort-budget.ts: low 1,024, medium 4,096, high 16,384 tokens, each step
 * fourfold, so the bounds lie halfway on that scale): Claude Code's "think" (4,000) is medium, "think hard"
 * (10,000) and "ultrathink" (31,999) high; OpenRouter's `reasoning.max_tokens` alike.
 */
export function effortNearestBudget(budgetTokens: number): string {
  if (budgetTokens < 2048) return 'low';
  return budgetTokens < 8192 ? 'medium' : 'high';
}

/**
 * The reasoning settings an OpenAI-protocol writer sends to `upstreamModel`. Those asked for only if the
 * model reasons (an Anthropic client's thinking) go to OpenAI's reasoning models alone: every other model
 * refuses `reasoning_effort` with a 400, so for it they are dropped and named `thinking`. OpenRouter
 * (`reasoningObject`) applies them to the models that reason and leaves them out for the others, so it
 * gets them whatever the model (Claude Code on Claude or DeepSeek through OpenRouter thinks as asked).
 */
export function reasoningForModel(request: CanonicalRequest, upstreamModel: string, features: UpstreamReasoningFacts): CanonicalRequest['reasoning'] {
  const { reasoning } = request;
  if (!reasoning?.onlyIfModelReasons || features.reasoningObject || reasonsLikeOpenAi(upstreamModel, features)) return reasoning;
  request.dropped.add('thinking');
  return undefined;
}

/**
 * `temperature` and `top_p` for an OpenAI-protocol writer, or neither, dropped and named, for OpenAI's
 * reasoning models, which refuse a value other than the default with a 400 (as the editor's rewrite does).
 */
export function samplingForModel(request: CanonicalRequest, upstreamModel: string, features: UpstreamReasoningFacts): { temperature?: number; top_p?: number } {
  if (reasonsLikeOpenAi(upstreamModel, features)) {
    if (request.temperature !== undefined) request.dropped.add('temperature');
    if (request.topP !== undefined) request.dropped.add('top_p');
    return {};
  }
  return { ...(request.temperature !== undefined ? { temperature: request.temperature } : {}), ...(request.topP !== undefined ? { top_p: request.topP } : {}) };
}

/** OpenAI's chat completions take at most four stop sequences ("Up to 4 sequences"). */
const OPENAI_STOP_SEQUENCES = 4;

/**
 * The stop sequences for a chat completions writer: none for OpenAI's reasoning models, which refuse `stop`
 * with a 400 ("Unsupported parameter: 'stop' is not supported with this model."); the first four for
 * OpenAI's own API, which refuses more (an Anthropic client may send more). What is left out is named
 * as dropped (`stop`).
 */
export function stopForModel(request: CanonicalRequest, upstreamModel: string, features: UpstreamReasoningFacts): string[] | undefined {
  const { stop } = request;
  if (!stop || stop.length === 0) return undefined;
  if (reasonsLikeOpenAi(upstreamModel, features)) {
    request.dropped.add('stop');
    return undefined;
  }
  if (features.maxCompletionTokens && stop.length > OPENAI_STOP_SEQUENCES) {
    request.dropped.add('stop');
    return stop.slice(0, OPENAI_STOP_SEQUENCES);
  }
  return stop;
}

/**
 * Whether the upstream model is one of OpenAI's reasoning kind: as the admin marked it (a deployment whose
 * name hides its model, on Azure), else by its id (reasoning-models.ts).
 */
export function reasonsLikeOpenAi(upstreamModel: string, features: UpstreamReasoningFacts): boolean {
  return features.reasoningModel ?? isOpenAiReasoningModel(upstreamModel);
}
