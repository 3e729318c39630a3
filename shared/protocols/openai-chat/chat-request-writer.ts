import type { CanonicalMessage, CanonicalPart, CanonicalRequest, CanonicalTool } from '../../canonical/canonical-request.ts';
import { inlineFileName } from '../../canonical/base64-data-url.ts';
import { dropCacheMarks } from '../../canonical/cache-marks.ts';
import { dropToolErrorMarks } from '../../canonical/tool-error-marks.ts';
import { jsonToolCallInput, jsonToolInputSchema } from '../../canonical/custom-tool-input.ts';
import { endUserIdWithin, OPENAI_END_USER_MAX_LENGTH } from '../../canonical/end-user-id.ts';
import { dropBudgetWithoutEffort, reasoningForModel, samplingForModel, stopForModel } from '../../canonical/reasoning-settings.ts';
import { outputCap } from '../output-cap.ts';
import type { UpstreamFeatures } from '../wire-protocol.ts';
import { chatToolCallOf, type ChatContentPartOut, type ChatMessageOut, type ChatToolCallOut } from './chat-request-types.ts';
import { reasoningClaudeTakes } from './claude-behind-chat.ts';

/**
 * A canonical request as a chat completion request:
 * - the instructions become one leading system message (blocks joined by blank lines), and system turns
 *   stay system messages where they stand;
 * - a user turn's tool results become `tool` messages first (so they follow the assistant message that
 *   made the calls, as chat requires), then one user message with the rest (text, images, files, and the
 *   images tool results returned, which a tool message cannot hold); a lone text part is a plain string;
 * - an assistant turn's texts are joined into `content`, its tool calls become `tool_calls`; reasoning has
 *   no chat form and is left out;
 * - custom tools (free text) stay chat's own custom tools for a provider that takes them (OpenAI); for any
 *   other, a custom tool is a function taking one string property, `input`, and so is named in
 *   `tool_choice`, and its earlier calls are function calls with the text JSON-wrapped there
 *   (custom-tool-input.ts; the readers unwrap the calls that come back);
 * - `stream: true` also asks for `stream_options.include_usage`, so the stream ends with real usage;
 * - the answer's cap is `max_completion_tokens` for OpenAI's own API (its reasoning models refuse
 *   `max_tokens`), `max_tokens` for every other provider, at most the model's largest answer
 *   (output-cap.ts); OpenAI's reasoning models get no sampling parameters and no stop sequences (OpenAI's
 *   own API at most four), and an Anthropic client's thinking only if the model reasons, or through
 *   OpenRouter, which applies it where the model does (reasoning-settings.ts);
 * - cache marks are dropped and named: chat completions has none (OpenAI caches prompts by itself, and
 *   OpenRouter's `cache_control` on parts is no field other providers take).
 */
export function writeChatRequest(request: CanonicalRequest, upstreamModel: string, features: UpstreamFeatures): Record<string, unknown> {
  const messages: ChatMessageOut[] = [];
  dropCacheMarks(request);
  dropToolErrorMarks(request);
  const system = request.system.filter((text) => text !== '').join('\n\n');
  if (system !== '') messages.push({ role: 'system', content: system });
  for (const message of request.messages) messages.push(...writeMessage(message, features));

  const tools = request.tools.map((tool) => writeTool(tool, features));
  const hasTools = tools.length > 0;
  if (!hasTools && request.toolChoice !== undefined && request.toolChoice !== 'none') request.dropped.add('tool_choice');
  const choice = request.toolChoice;
  if (!features.reasoningObject) dropBudgetWithoutEffort(request);
  const reasoning = reasoningClaudeTakes(request, upstreamModel, reasoningForModel(request, upstreamModel, features));
  const cap = outputCap(request, features);
  const stop = stopForModel(request, upstreamModel, features);
  return {
    model: upstreamModel,
    messages,
    ...(cap ? { [features.maxCompletionTokens ? 'max_completion_tokens' : 'max_tokens']: cap } : {}),
    ...samplingForModel(request, upstreamModel, features),
    ...(stop ? { stop } : {}),
    ...(request.stream ? { stream: true, stream_options: { include_usage: true } } : { stream: false }),
    ...(hasTools ? { tools } : {}),
    ...(hasTools && choice !== undefined ? { tool_choice: typeof choice === 'string' ? choice : namedToolChoice(choice.name, request.tools, features) } : {}),
    ...(hasTools && request.parallelToolCalls === false && choice !== 'none' ? { parallel_tool_calls: false } : {}),
    ...writeReasoning(reasoning, features.reasoningObject),
    ...(request.responseFormat ? { response_format: writeResponseFormat(request.responseFormat) } : {}),
    ...(request.user ? { user: endUserIdWithin(request.user, OPENAI_END_USER_MAX_LENGTH) } : {}),
  };
}

/**
 * The reasoning setting: `reasoning_effort`, the field every chat server that reasons takes. OpenRouter
 * reads its own `reasoning` object too, and gets a budget there exactly (`max_tokens`: Claude Code's
 * "think hard" stays 10,000 tokens on Claude through OpenRouter), and thinking asked for without an effort
 * as `enabled` (the model's default effort).
 */
function writeReasoning(reasoning: CanonicalRequest['reasoning'], readsReasoningObject: boolean): Record<string, unknown> {
  if (reasoning === undefined) return {};
  if (readsReasoningObject && reasoning.budgetTokens !== undefined) return { reasoning: { max_tokens: reasoning.budgetTokens } };
  if (reasoning.effort) return { reasoning_effort: reasoning.effort };
  return readsReasoningObject && reasoning.onlyIfModelReasons ? { reasoning: { enabled: true } } : {};
}

function writeMessage(message: CanonicalMessage, features: UpstreamFeatures): ChatMessageOut[] {
  switch (message.role) {
    case 'system': {
      const text = texts(message.parts).join('\n\n');
      return text === '' ? [] : [{ role: 'system', content: text }];
    }
    case 'assistant':
      return writeAssistant(message.parts, features);
    case 'user':
    case 'tool':
      return writeUserTurn(message.parts);
  }
}

function texts(parts: readonly CanonicalPart[]): string[] {
  return parts.flatMap((part) => (part.type === 'text' && part.text !== '' ? [part.text] : []));
}

function writeUserTurn(parts: readonly CanonicalPart[]): ChatMessageOut[] {
  const toolMessages: ChatMessageOut[] = [];
  const content: ChatContentPartOut[] = [];
  for (const part of parts) {
    if (part.type === 'tool-result') {
      const text = part.content.flatMap((item) => (item.type === 'text' && item.text !== '' ? [item.text] : [])).join('\n');
      toolMessages.push({ role: 'tool', tool_call_id: part.callId, content: text });
      for (const item of part.content) if (item.type === 'image') content.push({ type: 'image_url', image_url: { url: item.url } });
    } else {
      const written = writePart(part);
      if (written) content.push(written);
    }
  }
  if (content.length === 0) return toolMessages;
  const only = content[0];
  return [...toolMessages, { role: 'user', content: content.length === 1 && only?.type === 'text' ? only.text : content }];
}

function writePart(part: CanonicalPart): ChatContentPartOut | undefined {
  switch (part.type) {
    case 'text':
      return part.text ? { type: 'text', text: part.text } : undefined;
    case 'image':
      return { type: 'image_url', image_url: { url: part.url } };
    case 'file':
      if (part.dataUrl) return { type: 'file', file: { file_data: part.dataUrl, filename: inlineFileName(part.dataUrl, part.filename) } };
      return part.text ? { type: 'text', text: part.text } : undefined;
    default:
      return undefined;
  }
}

function writeAssistant(parts: readonly CanonicalPart[], features: UpstreamFeatures): ChatMessageOut[] {
  const text = parts.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');
  const toolCalls: ChatToolCallOut[] = parts.flatMap((part) => (part.type === 'tool-call' ? [writeToolCall(part, features)] : []));
  if (text === '' && toolCalls.length === 0) return [];
  return [{ role: 'assistant', content: text === '' ? null : text, ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}) }];
}

function writeToolCall(call: Extract<CanonicalPart, { type: 'tool-call' }>, features: UpstreamFeatures): ChatToolCallOut {
  if (!call.custom || features.customTools) return chatToolCallOf(call);
  return { id: call.id, type: 'function', function: { name: call.name, arguments: JSON.stringify(jsonToolCallInput(call)) } };
}

function writeTool(tool: CanonicalTool, features: UpstreamFeatures): Record<string, unknown> {
  if (tool.custom && features.customTools) {
    return { type: 'custom', custom: { name: tool.name, ...(tool.description ? { description: tool.description } : {}), ...(tool.custom.format ? { format: tool.custom.format } : {}) } };
  }
  return {
    type: 'function',
    function: {
      name: tool.name,
      ...(tool.description ? { description: tool.description } : {}),
      parameters: tool.custom ? jsonToolInputSchema(tool) : (tool.parameters ?? { type: 'object', properties: {} }),
      ...(tool.strict !== undefined ? { strict: tool.strict } : {}),
    },
  };
}

function namedToolChoice(name: string, tools: readonly CanonicalTool[], features: UpstreamFeatures): Record<string, unknown> {
  const custom = features.customTools && tools.find((tool) => tool.name === name)?.custom;
  return custom ? { type: 'custom', custom: { name } } : { type: 'function', function: { name } };
}

function writeResponseFormat(format: NonNullable<CanonicalRequest['responseFormat']>): Record<string, unknown> {
  if (format.type === 'json_object') return { type: 'json_object' };
  return { type: 'json_schema', json_schema: { name: format.name, schema: format.schema, ...(format.strict !== undefined ? { strict: format.strict } : {}) } };
}
