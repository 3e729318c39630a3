import type { AnthropicTool, AnthropicToolChoice } from '../anthropic-messages/anthropic-request-types.ts';
import type { ChatRequest } from './chat-wire-types.ts';
import type { DroppedFields } from '../../canonical/translated-request.ts';

/**
 * Chat function tools as Anthropic tools (`parameters` → `input_schema`, which Anthropic requires to be an
 * object schema). Other tool types (OpenAI's `custom` tools) have no Anthropic form and are dropped.
 */
export function chatToolsToAnthropic(tools: ChatRequest['tools'], dropped: DroppedFields): AnthropicTool[] {
  const converted: AnthropicTool[] = [];
  for (const tool of tools ?? []) {
    const fn = tool.function;
    if ((tool.type ?? 'function') !== 'function' || !fn) {
      dropped.add(`tools[].type=${tool.type ?? 'unknown'}`);
      continue;
    }
    converted.push({
      name: fn.name,
      ...(fn.description ? { description: fn.description } : {}),
      input_schema: { type: 'object', properties: {}, ...(fn.parameters ?? {}) },
    });
  }
  return converted;
}

/**
 * `tool_choice` and `parallel_tool_calls` as Anthropic's tool_choice: auto → auto, none → none,
 * required → any, a named function → tool. `parallel_tool_calls: false` becomes
 * `disable_parallel_tool_use: true` (on auto when no choice was given). Without tools there is no choice.
 */
export function chatToolChoiceToAnthropic(request: ChatRequest, hasTools: boolean, dropped: DroppedFields): AnthropicToolChoice | undefined {
  const choice = request.tool_choice;
  if (!hasTools) {
    if (choice !== null && choice !== undefined && choice !== 'none') dropped.add('tool_choice');
    if (request.parallel_tool_calls === false) dropped.add('parallel_tool_calls');
    return undefined;
  }
  const serial = request.parallel_tool_calls === false ? { disable_parallel_tool_use: true } : {};
  if (choice === 'none') return { type: 'none' };
  if (choice === 'required') return { type: 'any', ...serial };
  if (typeof choice === 'object' && choice !== null) {
    const name = choice.function?.name;
    if (choice.type === 'function' && name) return { type: 'tool', name, ...serial };
    dropped.add(`tool_choice.type=${choice.type}`);
  }
  if (choice === 'auto' || request.parallel_tool_calls === false) return { type: 'auto', ...serial };
  return undefined;
}
