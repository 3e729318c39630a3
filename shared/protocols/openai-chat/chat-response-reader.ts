import type { CanonicalRequest } from '../../canonical/canonical-request.ts';
import type { CanonicalOutput, CanonicalResponse } from '../../canonical/canonical-response.ts';
import { customToolNames, unwrapCustomToolInput } from '../../canonical/custom-tool-input.ts';
import { parseProviderPayload } from '../../canonical/read-payload.ts';
import { GatewayError } from '../../core/errors.ts';
import { mapChatFinishReason } from './chat-finish-reason.ts';
import { readChatUsage } from './chat-usage.ts';
import { chatCompletionSchema } from './chat-wire-types.ts';

/** Whether a complete answer is a chat completion: one has `choices` (empty when a content filter left none). */
export function isChatCompletion(payload: Record<string, unknown>): boolean {
  return Array.isArray(payload.choices);
}

/**
 * A chat completion in canonical terms: `reasoning_content` (or `reasoning`, as OpenRouter and vLLM name
 * it) as reasoning, content and refusal as text, each tool call with its arguments. Only the first choice is
 * read: a translated request never asks for more. A function call of a custom tool of the translated `request`
 * (a provider without custom tools got it as a function taking one string, `input`) is a custom call with that text.
 */
export function readChatResponse(payload: unknown, request?: CanonicalRequest): CanonicalResponse {
  const customTools = customToolNames(request);
  const completion = parseProviderPayload(chatCompletionSchema, payload);
  const choice = completion?.choices?.[0];
  const usage = readChatUsage(completion?.usage);
  // A completion without choices still counts when it reports usage (a content filter can leave none).
  if (!completion || (!choice && !usage)) {
    throw new GatewayError('upstream', 'The upstream answered with a body that is not a chat completion.', { code: 'upstream_invalid_response' });
  }
  const message = choice?.message ?? {};
  const content: CanonicalOutput[] = [];
  const reasoning = message.reasoning_content ?? message.reasoning;
  if (reasoning) content.push({ type: 'reasoning', text: reasoning });
  const text = message.content ?? message.refusal;
  if (text) content.push({ type: 'text', text });
  (message.tool_calls ?? []).forEach((call, position) => {
    const id = call.id ?? `call_${position}`;
    if (call.type === 'custom' || (!call.function && call.custom)) content.push({ type: 'tool-call', id, name: call.custom?.name ?? '', arguments: call.custom?.input ?? '', custom: true });
    else if (customTools.has(call.function?.name ?? '')) content.push({ type: 'tool-call', id, name: call.function?.name ?? '', arguments: unwrapCustomToolInput(call.function?.arguments ?? ''), custom: true });
    else content.push({ type: 'tool-call', id, name: call.function?.name ?? '', arguments: call.function?.arguments ?? '' });
  });
  return {
    id: completion.id ?? '',
    model: completion.model ?? '',
    content,
    finish: mapChatFinishReason(choice?.finish_reason),
    ...(choice?.finish_reason ? { rawFinish: choice.native_finish_reason ?? choice.finish_reason } : {}),
    ...(usage ? { usage } : {}),
  };
}
