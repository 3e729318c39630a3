import { asJsonObject } from '../core/json-object.ts';
import { thinkingBudgetBound } from '../protocols/anthropic-messages/reasoning-effort-budget.ts';
import { chatPromptText } from '../tokenizer/estimate-tokens.ts';
import { jsonBody, type GenerationEndpoint } from '../pipeline/generation-endpoint.ts';
import { openAiEndUser } from '../protocols/end-user-fields.ts';
import { parseChatCompletionRequest, type ChatCompletionRequest } from '../protocols/openai-chat/chat-request.ts';
import { openAiChatProtocol } from '../protocols/openai-chat/openai-chat-protocol.ts';

/**
 * POST /v1/chat/completions: native to providers that speak chat completions (the client's body minus
 * routing-only fields, the upstream's bytes back), translated for the others.
 */
export const chatCompletionsEndpoint: GenerationEndpoint<ChatCompletionRequest> = {
  name: 'chat.completions',
  clientProtocol: openAiChatProtocol,
  modelKinds: ['chat'],
  parse: jsonBody(parseChatCompletionRequest),
  endUser: openAiEndUser,
  promptText: (request) => chatPromptText(request.messages, [...asArray(request.tools), ...asArray(request.functions)]),
  // The larger of the two when both are sent: a provider that reads `max_tokens` may bill up to it.
  maxOutputTokens: (request) => largestPositive([request.max_completion_tokens, request.max_tokens]),
  // `max_tokens`, which every provider reads (OpenAI's own API gets it as `max_completion_tokens`).
  withOutputCap: (body, cap) => ({ ...body, max_tokens: cap, max_completion_tokens: undefined }),
  thinkingBudget: (request) => thinkingBudgetBound(request.reasoning_effort, asJsonObject(request.reasoning)),
  // Each of the `n` choices can use the whole cap, and OpenAI bills them all.
  generations: (request) => ({ prompts: 1, choices: request.n ?? 1 }),
};

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function largestPositive(values: unknown[]): number | undefined {
  const caps = values.filter((value): value is number => typeof value === 'number' && value > 0);
  return caps.length === 0 ? undefined : Math.max(...caps);
}
