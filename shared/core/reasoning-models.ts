import type { AllowedModel } from './project-config.ts';

/**
 * OpenAI's reasoning models, known by their id whoever serves them (`o3`, `openai/o3` on OpenRouter):
 * the o-series, GPT-5 and later (not their `-chat` models, which do not reason) and Codex. They take
 * `reasoning_effort` and refuse sampling parameters other than the defaults (`temperature`, `top_p`);
 * other models refuse `reasoning_effort` with a 400.
 */
const OPENAI_REASONING_MODEL = /^(o\d|gpt-(?:[5-9]|[1-9]\d)(?!(\.\d+)?-chat)|codex)/i;

export function isOpenAiReasoningModel(model: string): boolean {
  return OPENAI_REASONING_MODEL.test(model.slice(model.lastIndexOf('/') + 1));
}

/** Whether an allowlisted model reasons as OpenAI's do: the admin's mark (`model allow … --reasoning`), else its id. */
export function reasonsAsOpenAiModel(model: Pick<AllowedModel, 'model' | 'reasoning'>): boolean {
  return model.reasoning ?? isOpenAiReasoningModel(model.model);
}
