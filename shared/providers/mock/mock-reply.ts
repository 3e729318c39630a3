import { functionTools, textOf, type MockMessage, type MockRequest, type MockTool } from './mock-request.ts';
import { jsonExample } from './mock-json-example.ts';
import { mockToolArguments } from './mock-tool-arguments.ts';

export type MockReply =
  | { kind: 'text'; text: string }
  | { kind: 'tool-call'; name: string; arguments: string };

/** Instructions, not turns of the conversation: Claude Code ends its request with a system message after the user's. */
const INSTRUCTION_ROLES: ReadonlySet<string> = new Set(['system', 'developer']);

/** The conversation up to its last turn: the system and developer messages after it left out. */
function upToLastTurn(messages: readonly MockMessage[]): readonly MockMessage[] {
  let end = messages.length;
  while (end > 0 && INSTRUCTION_ROLES.has((messages[end - 1] as MockMessage).role)) end--;
  return messages.slice(0, end);
}

/**
 * The tool the mock calls, if any. Only when the last turn is the user's, so that an agent loop ends
 * once its tool results come back: `tool_choice` "none" never calls; a forced function (or "required")
 * is called whatever the message says; otherwise the tool the user's message names (first mention wins).
 */
function chooseTool(request: MockRequest, lastMessage: MockMessage | undefined): MockTool | undefined {
  const tools = functionTools(request);
  if (tools.length === 0 || lastMessage?.role !== 'user' || request.tool_choice === 'none') return undefined;
  const choice = request.tool_choice;
  if (typeof choice === 'object' && choice?.function) {
    const forced = choice.function.name;
    return tools.find((tool) => tool.name === forced);
  }
  const text = textOf(lastMessage.content);
  const mentioned = tools
    .map((tool) => ({ tool, at: text.search(new RegExp(`(^|[^\\w-])${escapeRegExp(tool.name)}($|[^\\w-])`)) }))
    .filter((candidate) => candidate.at !== -1)
    .sort((a, b) => a.at - b.at)[0]?.tool;
  return mentioned ?? (choice === 'required' ? tools[0] : undefined);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * What the offline mock answers (docs/decisions/mock-provider.md), from the conversation's last turn
 * (system and developer messages after it do not count): a call of the tool the user asked for; after
 * tool results, what the tools returned; else the last user message repeated.
 */
export function composeMockReply(request: MockRequest): MockReply {
  const turns = upToLastTurn(request.messages);
  const lastMessage = turns.at(-1);
  const tool = chooseTool(request, lastMessage);
  if (tool) return { kind: 'tool-call', name: tool.name, arguments: mockToolArguments(tool, textOf(lastMessage?.content)) };
  if (lastMessage?.role === 'tool') {
    const results = trailingToolResults(turns).map((message) => textOf(message.content));
    return { kind: 'text', text: `[offline mock ${request.model}] The tool returned: ${results.join(' | ')}` };
  }
  const lastUser = [...request.messages].reverse().find((message) => message.role === 'user');
  const said = lastUser ? textOf(lastUser.content) : '';
  const echo = `[offline mock ${request.model}] You said: ${said || '(nothing)'}`;
  // Structured outputs: JSON the client's schema accepts (its SDK's `.parse()` reads it), or a JSON object for JSON mode.
  const format = request.response_format;
  if (format?.type === 'json_schema') return { kind: 'text', text: JSON.stringify(jsonExample(format.json_schema?.schema ?? {})) };
  if (format?.type === 'json_object') return { kind: 'text', text: JSON.stringify({ reply: echo }) };
  return { kind: 'text', text: echo };
}

/** The tool messages at the end of the conversation: the results of the last assistant turn's calls. */
function trailingToolResults(messages: readonly MockMessage[]): MockMessage[] {
  const results: MockMessage[] = [];
  for (let index = messages.length - 1; index >= 0 && messages[index]?.role === 'tool'; index--) results.unshift(messages[index] as MockMessage);
  return results;
}
