import { GatewayError } from '../../core/errors.ts';
import type { CanonicalMessage, CanonicalPart, CanonicalRequest, CanonicalTool, CanonicalToolChoice } from '../../canonical/canonical-request.ts';
import { DroppedFields } from '../../canonical/dropped-fields.ts';
import { parseRequestBody } from '../../canonical/read-payload.ts';
import { chatRequestSchema, type ChatContentPart, type ChatMessage, type ChatRequest } from './chat-wire-types.ts';

/** Chat fields the canonical request holds; any other field the client set is reported as dropped. */
const readFields = new Set([
  'model', 'messages', 'max_tokens', 'max_completion_tokens', 'temperature', 'top_p', 'stop', 'stream',
  'stream_options', 'tools', 'tool_choice', 'parallel_tool_calls', 'user', 'reasoning_effort', 'reasoning',
  // Applied to the answer (reasoningExcluded), whichever protocol the upstream speaks.
  'include_reasoning', 'response_format',
]);

/**
 * A chat completion request in canonical terms. System and developer messages stay where they stand (a
 * writer that needs them first hoists them); tool messages become tool results; `max_completion_tokens`
 * wins over `max_tokens`; `stop` becomes a list. Fields with no canonical place (n, seed, logprobs,
 * penalties, …) are named as dropped. A content part's `cache_control` (OpenRouter's prompt-caching
 * breakpoint, Anthropic's shape) becomes a cache mark; its `ttl` is dropped and named.
 */
export function readChatRequest(body: unknown): CanonicalRequest {
  const request = parseRequestBody(chatRequestSchema, body);
  const dropped = new DroppedFields();
  for (const [field, value] of Object.entries(request)) {
    if (!readFields.has(field) && value !== null && value !== undefined) dropped.add(field);
  }
  const maxOutputTokens = request.max_completion_tokens ?? request.max_tokens ?? undefined;
  const stop = stopSequences(request.stop);
  const responseFormat = readResponseFormat(request.response_format);
  const toolChoice = readToolChoice(request.tool_choice, dropped);
  const reasoning = readReasoning(request);
  return {
    system: [],
    messages: request.messages.flatMap((message) => readMessage(message, dropped)),
    tools: readTools(request.tools, dropped),
    ...(toolChoice ? { toolChoice } : {}),
    ...(typeof request.parallel_tool_calls === 'boolean' ? { parallelToolCalls: request.parallel_tool_calls } : {}),
    ...(maxOutputTokens ? { maxOutputTokens } : {}),
    ...(typeof request.temperature === 'number' ? { temperature: request.temperature } : {}),
    ...(typeof request.top_p === 'number' ? { topP: request.top_p } : {}),
    ...(stop ? { stop } : {}),
    stream: request.stream === true,
    ...(reasoning ? { reasoning } : {}),
    ...(responseFormat ? { responseFormat } : {}),
    ...(request.user ? { user: request.user } : {}),
    dropped,
  };
}

function readMessage(message: ChatMessage, dropped: DroppedFields): CanonicalMessage[] {
  switch (message.role) {
    case 'system':
    case 'developer':
      return [{ role: 'system', parts: readContent(message.content, dropped, ['text']) }];
    case 'user':
      return [{ role: 'user', parts: readContent(message.content, dropped) }];
    case 'assistant': {
      const calls: CanonicalPart[] = (message.tool_calls ?? []).map((call, position) => {
        const custom = call.type === 'custom' || (!call.function && !!call.custom);
        return {
          type: 'tool-call',
          id: call.id ?? `call_${position}`,
          name: (custom ? call.custom?.name : call.function?.name) ?? '',
          arguments: (custom ? call.custom?.input : call.function?.arguments) ?? '',
          ...(custom ? { custom } : {}),
        };
      });
      return [{ role: 'assistant', parts: [...readContent(message.content, dropped), ...calls] }];
    }
    case 'tool': {
      const content = typeof message.content === 'string' || message.content === null || message.content === undefined
        ? [{ type: 'text' as const, text: message.content ?? '' }]
        : readContent(message.content, dropped).flatMap((part) => (part.type === 'text' || part.type === 'image' ? [part] : []));
      return [{ role: 'tool', parts: [{ type: 'tool-result', callId: message.tool_call_id ?? '', content }] }];
    }
    default:
      dropped.add(`messages[].role=${message.role}`);
      return [];
  }
}

/** Content parts: text and refusals as text, images, files; audio and unknown parts are dropped and named. */
function readContent(content: string | ChatContentPart[] | null | undefined, dropped: DroppedFields, only?: string[]): CanonicalPart[] {
  if (content === null || content === undefined) return [];
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  const parts: CanonicalPart[] = [];
  for (const part of content) {
    if (only && !only.includes(part.type)) continue;
    const read = readPart(part);
    if (read && part.cache_control?.ttl) dropped.add('cache_control.ttl');
    if (read) parts.push(part.cache_control ? { ...read, cache: true } : read);
    else dropped.add(`messages[].content[type=${part.type}]`);
  }
  return parts;
}

function readPart(part: ChatContentPart): CanonicalPart | undefined {
  switch (part.type) {
    case 'text':
      return { type: 'text', text: part.text ?? '' };
    case 'refusal':
      return { type: 'text', text: part.refusal ?? '' };
    case 'image_url': {
      const url = typeof part.image_url === 'string' ? part.image_url : part.image_url?.url;
      return url ? { type: 'image', url } : undefined;
    }
    case 'file':
      return part.file?.file_data ? { type: 'file', dataUrl: part.file.file_data, ...(part.file.filename ? { filename: part.file.filename } : {}) } : undefined;
    default:
      return undefined;
  }
}

/**
 * The tools in canonical terms. A function tool without its definition is refused as OpenAI refuses it (a
 * translation must not quietly leave out a tool the client meant the model to have; the schema refuses a
 * custom tool without its name); a tool of another type is named as dropped.
 */
function readTools(tools: ChatRequest['tools'], dropped: DroppedFields): CanonicalTool[] {
  const read: CanonicalTool[] = [];
  for (const [index, tool] of (tools ?? []).entries()) {
    const type = tool.type ?? 'function';
    if (type === 'function' && !tool.function) {
      const param = `tools[${index}].function`;
      throw new GatewayError('invalid_request', `Missing required parameter: '${param}'.`, { code: 'invalid_request_body', param });
    }
    if (type === 'function' && tool.function) {
      const fn = tool.function;
      read.push({
        name: fn.name,
        ...(fn.description ? { description: fn.description } : {}),
        ...(fn.parameters ? { parameters: fn.parameters } : {}),
        ...(typeof fn.strict === 'boolean' ? { strict: fn.strict } : {}),
      });
    } else if (type === 'custom' && tool.custom?.name) {
      const custom = tool.custom;
      read.push({ name: custom.name, ...(custom.description ? { description: custom.description } : {}), custom: custom.format ? { format: custom.format } : {} });
    } else dropped.add(`tools[].type=${type}`);
  }
  return read;
}

function readToolChoice(choice: ChatRequest['tool_choice'], dropped: DroppedFields): CanonicalToolChoice | undefined {
  if (choice === null || choice === undefined) return undefined;
  if (typeof choice === 'string') return choice;
  const name = choice.function?.name ?? choice.custom?.name;
  if ((choice.type === 'function' || choice.type === 'custom') && name) return { name };
  dropped.add(`tool_choice.type=${choice.type}`);
  return undefined;
}

function stopSequences(stop: ChatRequest['stop']): string[] | undefined {
  if (stop === null || stop === undefined) return undefined;
  const sequences = (typeof stop === 'string' ? [stop] : stop).filter((sequence) => sequence !== '');
  return sequences.length > 0 ? sequences : undefined;
}

function readResponseFormat(format: ChatRequest['response_format']): CanonicalRequest['responseFormat'] {
  if (format?.type === 'json_object') return { type: 'json_object' };
  if (format?.type === 'json_schema' && format.json_schema) {
    const spec = format.json_schema;
    return { type: 'json_schema', name: spec.name ?? 'response', schema: spec.schema ?? {}, ...(typeof spec.strict === 'boolean' ? { strict: spec.strict } : {}) };
  }
  return undefined;
}

/**
 * How hard to think: OpenAI's `reasoning_effort`, else OpenRouter's `reasoning` (`effort`, a `max_tokens`
 * budget, `enabled: false` for none, `enabled: true` alone for a medium effort). Its `exclude` (reasoning
 * done but not shown) is the answer's to follow (reasoningExcluded).
 */
function readReasoning(request: ChatRequest): CanonicalRequest['reasoning'] {
  const unified = request.reasoning ?? undefined;
  if (request.reasoning_effort) return { effort: request.reasoning_effort };
  if (!unified) return undefined;
  if (unified.enabled === false) return { effort: 'none' };
  const effort = unified.effort ?? (unified.enabled === true && !unified.max_tokens ? 'medium' : undefined);
  if (!effort && !unified.max_tokens) return undefined;
  return { ...(effort ? { effort } : {}), ...(unified.max_tokens ? { budgetTokens: unified.max_tokens } : {}) };
}
