import type { CanonicalMessage, CanonicalPart, CanonicalRequest, CanonicalTool, CanonicalToolChoice } from '../../canonical/canonical-request.ts';
import { DroppedFields } from '../../canonical/dropped-fields.ts';
import { parseRequestBody } from '../../canonical/read-payload.ts';
import { stringifyToolInput } from '../../canonical/tool-arguments.ts';
import { readOutputFormat } from './messages-output-format.ts';
import { outputConfigIsRead, readThinkingAsEffort } from './thinking-as-effort.ts';
import { anthropicRequestSchema, type AnthropicBlock, type AnthropicCacheControl, type AnthropicRequest } from './anthropic-wire-types.ts';
import { carriedOpenAiReasoning } from './openai-reasoning-signature.ts';

/** Messages fields the canonical request holds; any other field the client set is reported as dropped. */
const readFields = new Set([
  'model', 'system', 'messages', 'max_tokens', 'temperature', 'top_p', 'stop_sequences', 'stream', 'tools',
  'tool_choice', 'metadata', 'thinking', 'output_format',
]);

type Content = string | AnthropicBlock[];

/**
 * An Anthropic Messages request in canonical terms: `system` as the instructions (its text blocks), user turns with their tool results, images and documents, assistant turns with
 * their text and tool calls (tool inputs as JSON text), client tools (server tools, which run inside
 * Anthropic's platform, are dropped and named). `cache_control` marks on system blocks, tools and content
 * blocks become cache marks (a `ttl` is dropped and named: the default lifetime applies). `thinking` and
 * `output_config.effort` become a reasoning effort for models that reason (thinking-as-effort.ts), structured
 * outputs (`output_config.format`) the answer's JSON Schema format (messages-output-format.ts). Thinking
 * blocks of earlier turns, top_k, service_tier, container, mcp_servers and every other field are dropped
 * and named.
 */
export function readMessagesRequest(body: unknown): CanonicalRequest {
  const request = parseRequestBody(anthropicRequestSchema, body);
  const dropped = new DroppedFields();
  const isRead = (field: string) => readFields.has(field) || (field === 'output_config' && outputConfigIsRead(request));
  for (const [field, value] of Object.entries(request)) {
    if (!isRead(field) && value !== null && value !== undefined) dropped.add(field);
  }
  const reasoning = readThinkingAsEffort(request, dropped);
  const responseFormat = readOutputFormat(request, dropped);
  const tools = readTools(request.tools, dropped);
  const choice = readToolChoice(request.tool_choice, tools.length > 0, dropped);
  const userId = request.metadata?.user_id;
  const system = systemParts(request.system, dropped);
  const systemCache = system.flatMap((part, index) => (part.cache ? [index] : []));
  return {
    system: system.map((part) => part.text),
    ...(systemCache.length > 0 ? { systemCache } : {}),
    messages: request.messages.map((message) => readMessage(message.role, message.content, dropped)),
    tools,
    ...(choice.toolChoice ? { toolChoice: choice.toolChoice } : {}),
    ...(choice.serial ? { parallelToolCalls: false } : {}),
    ...(request.max_tokens ? { maxOutputTokens: request.max_tokens } : {}),
    ...(typeof request.temperature === 'number' ? { temperature: request.temperature } : {}),
    ...(typeof request.top_p === 'number' ? { topP: request.top_p } : {}),
    ...(request.stop_sequences && request.stop_sequences.length > 0 ? { stop: request.stop_sequences } : {}),
    stream: request.stream === true,
    ...(userId ? { user: userId } : {}),
    ...(reasoning ? { reasoning } : {}),
    ...(responseFormat ? { responseFormat } : {}),
    dropped,
  };
}

/** Anthropic's `system` (a string or text blocks) as instruction texts, with their cache marks. */
function systemParts(system: Content | null | undefined, dropped: DroppedFields): Array<{ type: 'text'; text: string; cache?: true }> {
  if (system === null || system === undefined) return [];
  if (typeof system === 'string') return system === '' ? [] : [{ type: 'text', text: system }];
  return system.flatMap((block) => (block.type === 'text' && block.text ? [{ type: 'text' as const, text: block.text, ...readCacheMark(block.cache_control, dropped) }] : []));
}

/** A `cache_control` mark as a canonical cache mark. */
function readCacheMark(mark: AnthropicCacheControl, dropped: DroppedFields): { cache?: true } {
  if (!mark) return {};
  if (mark.ttl) dropped.add('cache_control.ttl');
  return { cache: true };
}

function readMessage(role: 'user' | 'assistant' | 'system', content: Content, dropped: DroppedFields): CanonicalMessage {
  if (role === 'system') return { role, parts: systemParts(content, dropped) };
  if (typeof content === 'string') return { role, parts: [{ type: 'text', text: content }] };
  const parts: CanonicalPart[] = [];
  for (const block of content) {
    const part = role === 'user' ? readUserBlock(block) : readAssistantBlock(block);
    if (part) parts.push({ ...part, ...readCacheMark(block.cache_control, dropped) });
    else if (!(block.type === 'text' && !block.text)) dropped.add(`messages[].content[type=${block.type}]`);
  }
  return { role, parts };
}

function readUserBlock(block: AnthropicBlock): CanonicalPart | undefined {
  if (block.type === 'text') return block.text ? { type: 'text', text: block.text } : undefined;
  if (block.type === 'tool_result') {
    return { type: 'tool-result', callId: block.tool_use_id ?? '', content: toolResultContent(block.content), ...(block.is_error ? { isError: true } : {}) };
  }
  return readMedia(block);
}

function readAssistantBlock(block: AnthropicBlock): CanonicalPart | undefined {
  if (block.type === 'text') return { type: 'text', text: block.text ?? '' };
  if (block.type === 'tool_use') return { type: 'tool-call', id: block.id ?? '', name: block.name ?? '', arguments: stringifyToolInput(block.input) };
  // Thinking OpenAI's Responses API did, carried in its signature, goes back to it; Anthropic's own thinking has no other protocol's form.
  const encrypted = block.type === 'thinking' ? carriedOpenAiReasoning(block.signature) : undefined;
  if (encrypted) return { type: 'reasoning', text: block.thinking ?? '', encrypted };
  return undefined;
}

/** An image or document block: base64 as a `data:` URL, URL sources as they are, plain-text documents as text. */
function readMedia(block: AnthropicBlock): CanonicalPart | undefined {
  const source = block.source;
  if (!source) return undefined;
  const dataUrl = source.type === 'base64' && source.data ? `data:${source.media_type ?? ''};base64,${source.data}` : undefined;
  if (block.type === 'image') {
    const url = dataUrl ?? (source.type === 'url' ? source.url : undefined);
    return url ? { type: 'image', url } : undefined;
  }
  if (block.type === 'document') {
    if (source.type === 'text' && source.data) return { type: 'file', text: source.data, ...(block.title ? { filename: block.title } : {}) };
    if (dataUrl) return { type: 'file', dataUrl, ...(block.title ? { filename: block.title } : {}) };
  }
  return undefined;
}

function toolResultContent(content: unknown): Array<{ type: 'text'; text: string } | { type: 'image'; url: string }> {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  const items: Array<{ type: 'text'; text: string } | { type: 'image'; url: string }> = [];
  for (const block of Array.isArray(content) ? (content as AnthropicBlock[]) : []) {
    if (block.type === 'text' && block.text) items.push({ type: 'text', text: block.text });
    const media = block.type === 'image' ? readMedia(block) : undefined;
    if (media?.type === 'image') items.push(media);
  }
  return items;
}

function readTools(tools: AnthropicRequest['tools'], dropped: DroppedFields): CanonicalTool[] {
  const read: CanonicalTool[] = [];
  for (const tool of tools ?? []) {
    const type = tool.type ?? 'custom';
    if (type !== 'custom') {
      dropped.add(`tools[].type=${type}`);
      continue;
    }
    read.push({
      name: tool.name,
      ...(tool.description ? { description: tool.description } : {}),
      parameters: tool.input_schema ?? { type: 'object', properties: {} },
      ...readCacheMark(tool.cache_control, dropped),
    });
  }
  return read;
}

/** auto → auto, any → required, tool → the named tool, none → none; `disable_parallel_tool_use` → one call at a time. */
function readToolChoice(choice: AnthropicRequest['tool_choice'], hasTools: boolean, dropped: DroppedFields): { toolChoice?: CanonicalToolChoice; serial: boolean } {
  if (!choice) return { serial: false };
  if (!hasTools) {
    if (choice.type !== 'none') dropped.add('tool_choice');
    return { serial: false };
  }
  const serial = choice.disable_parallel_tool_use === true;
  switch (choice.type) {
    case 'auto':
      return { toolChoice: 'auto', serial };
    case 'any':
      return { toolChoice: 'required', serial };
    case 'none':
      return { toolChoice: 'none', serial: false };
    case 'tool':
      if (choice.name) return { toolChoice: { name: choice.name }, serial };
      dropped.add('tool_choice');
      return { serial };
  }
}
