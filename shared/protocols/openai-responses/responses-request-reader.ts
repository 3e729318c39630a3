import type { CanonicalMessage, CanonicalPart, CanonicalRequest, CanonicalTool, CanonicalToolChoice } from '../../canonical/canonical-request.ts';
import { DroppedFields } from '../../canonical/dropped-fields.ts';
import { parseRequestBody } from '../../canonical/read-payload.ts';
import { GatewayError } from '../../core/errors.ts';
import { ENCRYPTED_REASONING_INCLUDE, readReasoningCarrier } from './reasoning-carrier.ts';
import { responsesTranslationSchema, type ResponsesContentPart, type ResponsesInputItem, type ResponsesTranslationRequest } from './responses-request-types.ts';

/** Responses fields the canonical request holds (or that only steer the upstream); any other field set is named as dropped. */
const readFields = new Set([
  'model', 'input', 'instructions', 'tools', 'tool_choice', 'parallel_tool_calls', 'max_output_tokens', 'temperature',
  'top_p', 'stream', 'reasoning', 'text', 'user', 'safety_identifier', 'include',
]);

type ToolResultContent = Extract<CanonicalPart, { type: 'tool-result' }>['content'];

/**
 * A Responses request in canonical terms, for an upstream of another protocol:
 * - `instructions` are the instructions; system and developer messages stay system turns where they stand;
 * - consecutive assistant items (reasoning, messages, function and custom tool calls) form one assistant
 *   turn, consecutive tool outputs one tool turn, as the other protocols number their turns;
 * - reasoning items keep their summary text and their encrypted content (an Anthropic signature the
 *   gateway carried there comes back as the signature: see reasoning-carrier.ts);
 * - function tools with their schemas, custom tools with their format; hosted tools (web search, file
 *   search, MCP, …) run inside OpenAI's platform and are dropped and named;
 * - `text.format` is the structured output (`text.verbosity` is named as dropped), `reasoning` the effort and summary.
 * `previous_response_id` needs the provider that stored the response, which a translation never reaches:
 * it is refused with 400. `store` is dropped (nothing is stored for a translated answer).
 */
export function readResponsesRequest(body: unknown): CanonicalRequest {
  const request = parseRequestBody(responsesTranslationSchema, body);
  if (request.previous_response_id) {
    throw new GatewayError(
      'invalid_request',
      'previous_response_id needs the provider that stored that response, and this model is reached through translation, where the gateway keeps no conversation state. Send the whole conversation in "input" instead.',
      { code: 'previous_response_not_supported', param: 'previous_response_id' },
    );
  }
  const dropped = new DroppedFields();
  for (const [field, value] of Object.entries(request)) {
    if (!readFields.has(field) && value !== null && value !== undefined) dropped.add(field);
  }
  for (const included of request.include ?? []) if (included !== ENCRYPTED_REASONING_INCLUDE) dropped.add(`include[]=${included}`);
  // Set inside `text`, which the format is read from: no other protocol has a place for it.
  if (request.text?.verbosity) dropped.add('text.verbosity');
  const tools = readTools(request.tools, dropped);
  const toolChoice = readToolChoice(request.tool_choice, dropped);
  const responseFormat = readTextFormat(request.text?.format);
  const reasoning = request.reasoning;
  const user = request.safety_identifier ?? request.user;
  return {
    system: request.instructions ? [request.instructions] : [],
    messages: readInput(request.input, dropped),
    tools,
    ...(toolChoice ? { toolChoice } : {}),
    ...(typeof request.parallel_tool_calls === 'boolean' ? { parallelToolCalls: request.parallel_tool_calls } : {}),
    ...(request.max_output_tokens ? { maxOutputTokens: request.max_output_tokens } : {}),
    ...(typeof request.temperature === 'number' ? { temperature: request.temperature } : {}),
    ...(typeof request.top_p === 'number' ? { topP: request.top_p } : {}),
    stream: request.stream === true,
    ...(reasoning?.effort || reasoning?.summary
      ? { reasoning: { ...(reasoning.effort ? { effort: reasoning.effort } : {}), ...(reasoning.summary ? { summary: reasoning.summary } : {}) } }
      : {}),
    ...(responseFormat ? { responseFormat } : {}),
    ...(user ? { user } : {}),
    dropped,
  };
}

function readInput(input: ResponsesTranslationRequest['input'], dropped: DroppedFields): CanonicalMessage[] {
  // Natively the provider may take a stored prompt or conversation instead; a translation has nothing else to send.
  if (input === null || input === undefined) throw new GatewayError('invalid_request', "Missing required parameter: 'input'.", { code: 'missing_required_parameter', param: 'input' });
  if (typeof input === 'string') return [{ role: 'user', parts: [{ type: 'text', text: input }] }];
  const messages: CanonicalMessage[] = [];
  const append = (role: CanonicalMessage['role'], parts: CanonicalPart[]) => {
    const last = messages.at(-1);
    // Turns of the assistant and of tool outputs continue; user and system messages stand on their own.
    if (last && last.role === role && (role === 'assistant' || role === 'tool')) last.parts.push(...parts);
    else messages.push({ role, parts });
  };
  for (const [index, item] of input.entries()) {
    const read = readItem(item, index, dropped);
    if (read) append(read.role, read.parts);
  }
  return messages;
}

function readItem(item: ResponsesInputItem, index: number, dropped: DroppedFields): CanonicalMessage | undefined {
  const type = item.type ?? 'message';
  switch (type) {
    case 'message':
      return readMessage(item, index, dropped);
    case 'function_call':
    case 'custom_tool_call': {
      const custom = type === 'custom_tool_call';
      const argumentsText = (custom ? item.input : item.arguments) ?? '';
      return { role: 'assistant', parts: [{ type: 'tool-call', id: item.call_id ?? '', name: item.name ?? '', arguments: argumentsText, ...(custom ? { custom } : {}) }] };
    }
    case 'function_call_output':
    case 'custom_tool_call_output': {
      const custom = type === 'custom_tool_call_output';
      return { role: 'tool', parts: [{ type: 'tool-result', callId: item.call_id ?? '', content: readToolOutput(item.output, dropped), ...(custom ? { custom } : {}) }] };
    }
    case 'reasoning': {
      const text = (item.summary ?? []).flatMap((part) => (part.text ? [part.text] : [])).join('\n\n');
      const carried = readReasoningCarrier(item.encrypted_content);
      if (!text && !carried) return undefined;
      return { role: 'assistant', parts: [{ type: 'reasoning', text, ...carried }] };
    }
    default:
      dropped.add(`input[].type=${type}`);
      return undefined;
  }
}

/**
 * A message of a role the Responses API does not have is refused as OpenAI refuses it (a 400 naming the
 * roles), not left out: its words would be lost and the rest answered as if they were never sent.
 */
function readMessage(item: ResponsesInputItem, index: number, dropped: DroppedFields): CanonicalMessage {
  const role = item.role === 'developer' || item.role === 'system' ? 'system' : item.role === 'assistant' ? 'assistant' : item.role === 'user' ? 'user' : undefined;
  if (!role) {
    const value = typeof item.role === 'string' ? `Invalid value: '${item.role}'.` : "Missing required parameter: 'role'.";
    throw new GatewayError('invalid_request', `${value} Supported values are: 'assistant', 'system', 'developer', and 'user'.`, {
      code: typeof item.role === 'string' ? 'invalid_value' : 'missing_required_parameter',
      param: `input[${index}].role`,
    });
  }
  const content = item.content ?? [];
  const parts = typeof content === 'string' ? [{ type: 'text' as const, text: content }] : content.flatMap((part) => readPart(part, dropped));
  return { role, parts: role === 'system' ? parts.filter((part) => part.type === 'text') : parts };
}

/** input_text, output_text and refusals as text; images by URL; files as data URLs; the rest is named as dropped. */
function readPart(part: ResponsesContentPart, dropped: DroppedFields): CanonicalPart[] {
  switch (part.type) {
    case 'input_text':
    case 'output_text':
      return [{ type: 'text', text: part.text ?? '' }];
    case 'refusal':
      return [{ type: 'text', text: part.refusal ?? '' }];
    case 'input_image':
      if (part.image_url) return [{ type: 'image', url: part.image_url }];
      break;
    case 'input_file':
      if (part.file_data) return [{ type: 'file', dataUrl: part.file_data, ...(part.filename ? { filename: part.filename } : {}) }];
      break;
  }
  // Files and images by id live in OpenAI's storage, which another provider cannot read.
  dropped.add(`input[].content[type=${part.type}]`);
  return [];
}

function readToolOutput(output: ResponsesInputItem['output'], dropped: DroppedFields): ToolResultContent {
  if (output === null || output === undefined) return [];
  if (typeof output === 'string') return [{ type: 'text', text: output }];
  return output.flatMap((part) => readPart(part, dropped)).flatMap((part) => (part.type === 'text' || part.type === 'image' ? [part] : []));
}

function readTools(tools: ResponsesTranslationRequest['tools'], dropped: DroppedFields): CanonicalTool[] {
  const read: CanonicalTool[] = [];
  for (const [index, tool] of (tools ?? []).entries()) {
    if ((tool.type === 'function' || tool.type === 'custom') && !tool.name) {
      throw new GatewayError('invalid_request', `Missing required parameter: 'tools[${index}].name'.`, { code: 'missing_required_parameter', param: `tools[${index}].name` });
    }
    if (tool.type === 'function' && tool.name) {
      read.push({
        name: tool.name,
        ...(tool.description ? { description: tool.description } : {}),
        ...(tool.parameters ? { parameters: tool.parameters } : {}),
        ...(typeof tool.strict === 'boolean' ? { strict: tool.strict } : {}),
      });
    } else if (tool.type === 'custom' && tool.name) {
      read.push({ name: tool.name, ...(tool.description ? { description: tool.description } : {}), custom: tool.format ? { format: tool.format } : {} });
    } else dropped.add(`tools[].type=${tool.type}`);
  }
  return read;
}

/** auto, none, required, or one function or custom tool by name; other choices (hosted tools, allowed_tools) are dropped. */
function readToolChoice(choice: ResponsesTranslationRequest['tool_choice'], dropped: DroppedFields): CanonicalToolChoice | undefined {
  if (choice === null || choice === undefined) return undefined;
  if (typeof choice === 'string') return choice;
  if ((choice.type === 'function' || choice.type === 'custom') && choice.name) return { name: choice.name };
  dropped.add(`tool_choice.type=${choice.type}`);
  return undefined;
}

function readTextFormat(format: NonNullable<ResponsesTranslationRequest['text']>['format']): CanonicalRequest['responseFormat'] {
  if (format?.type === 'json_object') return { type: 'json_object' };
  if (format?.type === 'json_schema') {
    return { type: 'json_schema', name: format.name ?? 'response', schema: format.schema ?? {}, ...(typeof format.strict === 'boolean' ? { strict: format.strict } : {}) };
  }
  return undefined;
}
