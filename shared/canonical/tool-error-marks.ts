import type { CanonicalRequest } from './canonical-request.ts';

/**
 * OpenAI's tool outputs (a chat tool message, a Responses `function_call_output`) have no failure flag:
 * a tool result marked as failed (Anthropic's `is_error`) reaches the model as its output alone, which
 * says what went wrong, and the flag is named as dropped, as every field a writer has no place for.
 */
export function dropToolErrorMarks(request: CanonicalRequest): void {
  const marked = request.messages.some((message) => message.parts.some((part) => part.type === 'tool-result' && part.isError === true));
  if (marked) request.dropped.add('tool_result.is_error');
}
