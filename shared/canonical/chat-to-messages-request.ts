import type { AnthropicMessagesRequestBody } from '../protocols/anthropic-messages/anthropic-request-types.ts';
import { chatMessagesToAnthropic } from '../protocols/openai-chat/chat-messages-to-anthropic.ts';
import { chatToolChoiceToAnthropic, chatToolsToAnthropic } from '../protocols/openai-chat/chat-tools-to-anthropic.ts';
import { chatRequestSchema, type ChatRequest } from '../protocols/openai-chat/chat-wire-types.ts';
import { parseRequestBody } from './read-payload.ts';
import { DEFAULT_MAX_TOKENS, maxTokensWithThinking, thinkingBudgetFor } from '../protocols/anthropic-messages/reasoning-effort-budget.ts';
import { DroppedFields, type TranslatedRequest } from './translated-request.ts';

export interface ChatToMessagesRequestOptions {
  /** The upstream's model id. */
  upstreamModel: string;
  /** max_tokens when the client sets none; DEFAULT_MAX_TOKENS (4096) unless given. */
  defaultMaxTokens?: number;
}

/** Chat fields this translation reads; any other field the client set is reported as dropped. */
const translatedFields = new Set([
  'model', 'messages', 'max_tokens', 'max_completion_tokens', 'temperature', 'top_p', 'stop', 'stream',
  'stream_options', 'tools', 'tool_choice', 'parallel_tool_calls', 'user', 'reasoning_effort',
]);

/**
 * A chat completion request (for an Anthropic model) as an Anthropic Messages request. See
 * chatMessagesToAnthropic for the conversation rules. Beyond them:
 * - max_completion_tokens, else max_tokens, else `defaultMaxTokens` (4096) becomes max_tokens;
 * - temperature is capped at 1 (Anthropic's range is 0–1, OpenAI's 0–2); top_p passes;
 * - stop (a string or a list) becomes stop_sequences; `user` becomes metadata.user_id;
 * - reasoning_effort becomes extended thinking with THINKING_BUDGET_BY_EFFORT's budget, max_tokens raised
 *   above the budget when needed. Thinking admits no temperature and only a top_p of at least 0.95, so
 *   those are dropped with it; a forced tool choice (required or named) admits no thinking, so then the
 *   effort is dropped instead.
 * Every other field the client set (n, seed, logprobs, response_format, penalties, …) is dropped and named.
 */
export function convertChatRequestToMessages(chatBody: unknown, options: ChatToMessagesRequestOptions): TranslatedRequest<AnthropicMessagesRequestBody> {
  const request = parseRequestBody(chatRequestSchema, chatBody);
  const dropped = new DroppedFields();
  for (const [field, value] of Object.entries(request)) {
    if (!translatedFields.has(field) && value !== null && value !== undefined) dropped.add(field);
  }

  const { system, messages } = chatMessagesToAnthropic(request.messages, dropped);
  const tools = chatToolsToAnthropic(request.tools, dropped);
  const toolChoice = chatToolChoiceToAnthropic(request, tools.length > 0, dropped);
  const body: AnthropicMessagesRequestBody = {
    model: options.upstreamModel,
    max_tokens: request.max_completion_tokens ?? request.max_tokens ?? options.defaultMaxTokens ?? DEFAULT_MAX_TOKENS,
    messages,
    ...(system.length > 0 ? { system } : {}),
    ...(typeof request.temperature === 'number' ? { temperature: Math.min(request.temperature, 1) } : {}),
    ...(typeof request.top_p === 'number' ? { top_p: request.top_p } : {}),
    ...stopSequences(request.stop),
    ...(typeof request.stream === 'boolean' ? { stream: request.stream } : {}),
    ...(tools.length > 0 ? { tools } : {}),
    ...(toolChoice ? { tool_choice: toolChoice } : {}),
    ...(request.user ? { metadata: { user_id: request.user } } : {}),
  };
  applyReasoningEffort(body, request, dropped);
  return { body, droppedFields: dropped.list() };
}

function stopSequences(stop: ChatRequest['stop']): { stop_sequences?: string[] } {
  if (stop === null || stop === undefined) return {};
  const sequences = (typeof stop === 'string' ? [stop] : stop).filter((sequence) => sequence !== '');
  return sequences.length > 0 ? { stop_sequences: sequences } : {};
}

function applyReasoningEffort(body: AnthropicMessagesRequestBody, request: ChatRequest, dropped: DroppedFields): void {
  const budget = thinkingBudgetFor(request.reasoning_effort);
  if (budget === undefined) {
    if (request.reasoning_effort && request.reasoning_effort !== 'none') dropped.add('reasoning_effort');
    return;
  }
  const forced = body.tool_choice?.type === 'any' || body.tool_choice?.type === 'tool';
  if (forced) {
    dropped.add('reasoning_effort');
    return;
  }
  body.thinking = { type: 'enabled', budget_tokens: budget };
  body.max_tokens = maxTokensWithThinking(body.max_tokens, budget);
  if (body.temperature !== undefined) {
    delete body.temperature;
    dropped.add('temperature');
  }
  if (body.top_p !== undefined && body.top_p < 0.95) {
    delete body.top_p;
    dropped.add('top_p');
  }
}
