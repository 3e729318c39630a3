import type { AnthropicRequest } from './anthropic-wire-types.ts';
import type { ChatFunctionTool, ChatToolChoiceOut } from '../openai-chat/chat-request-types.ts';
import type { DroppedFields } from '../../canonical/translated-request.ts';

/**
 * Anthropic client tools as chat function tools (`input_schema` → `parameters`). Server tools (web search,
 * code execution, bash, text editor, i.e. every tool with a versioned `type`) run inside Anthropic's platform and
 * have no chat form, so they are dropped and named.
 */
export function anthropicToolsToChat(tools: AnthropicRequest['tools'], dropped: DroppedFields): ChatFunctionTool[] {
  const converted: ChatFunctionTool[] = [];
  for (const tool of tools ?? []) {
    const type = tool.type ?? 'custom';
    if (type !== 'custom') {
      dropped.add(`tools[].type=${type}`);
      continue;
    }
    converted.push({
      type: 'function',
      function: {
        name: tool.name,
        ...(tool.description ? { description: tool.description } : {}),
        parameters: tool.input_schema ?? { type: 'object', properties: {} },
      },
    });
  }
  return converted;
}

/**
 * Anthropic's tool_choice as chat's: auto → auto, any → required, tool → the named function, none → none;
 * `disable_parallel_tool_use: true` becomes `parallel_tool_calls: false`. Without tools there is no choice.
 */
export function anthropicToolChoiceToChat(
  choice: AnthropicRequest['tool_choice'],
  hasTools: boolean,
  dropped: DroppedFields,
): { tool_choice?: ChatToolChoiceOut; parallel_tool_calls?: false } {
  if (!choice) return {};
  if (!hasTools) {
    if (choice.type !== 'none') dropped.add('tool_choice');
    return {};
  }
  const serial = choice.disable_parallel_tool_use === true ? { parallel_tool_calls: false as const } : {};
  switch (choice.type) {
    case 'auto':
      return { tool_choice: 'auto', ...serial };
    case 'any':
      return { tool_choice: 'required', ...serial };
    case 'none':
      return { tool_choice: 'none' };
    case 'tool':
      if (choice.name) return { tool_choice: { type: 'function', function: { name: choice.name } }, ...serial };
      dropped.add('tool_choice');
      return serial;
  }
}
