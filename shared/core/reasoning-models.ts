import type { AllowedModel } from './project-config.ts';

/**
 * OpenAI's reasoning models, known by their id whoever serves them (`o3`, `openai/o3` on OpenRouter):
 * the o-series, GPT-5 and later (not their `-chat` models, which do not reason) and Codex. They take
 * `reasoning_effort` and refuse sampling parameters other than the defaults (`temperature`, `top_p`);
 * other models refuse `reasoning_effort` with a 400.
 */
const OPENAI_REASONING_MODEL = /^(o\d|gpt-(?:[5-9]|[1-9]\d)(?!(\.\d+)?-chat)|codex)/i;

export function isOpenAiReasoningModel(model: string): boolean {
  return OPENAI_REASONING_MODEL.test(baseModelId(model));
}

/**
 * OpenAI's models known not to reason, by their id: GPT-4o, GPT-4.1, GPT-4.5, GPT-4 and 3.5, and the `-chat`
 * models of GPT-5 and later. Unlike "not a reasoning model by its id", this does not take in ids it does
 * not know (an Azure deployment's own name), which may reason.
 */
const OPENAI_NON_REASONING_MODEL = /^(?:gpt-4o|chatgpt-4o|gpt-4\.[15]|gpt-4(?:-|$)|gpt-3\.5|gpt-(?:[5-9]|[1-9]\d)(?:\.\d+)?-chat)/i;

export function isKnownNonReasoningOpenAiModel(model: string): boolean {
  return OPENAI_NON_REASONING_MODEL.test(baseModelId(model));
}

/** The model id without a provider prefix (`openai/o3` on OpenRouter) and a fine-tune's `ft:` (`ft:o4-mini-…:org::id`). */
function baseModelId(model: string): string {
  return model.slice(model.lastIndexOf('/') + 1).replace(/^ft:/i, '');
}

/** Whether an allowlisted model reasons as OpenAI's do: the admin's mark (`model allow … --reasoning`), else its id. */
export function reasonsAsOpenAiModel(model: Pick<AllowedModel, 'model' | 'reasoning'>): boolean {
  return model.reasoning ?? isOpenAiReasoningModel(model.model);
}
