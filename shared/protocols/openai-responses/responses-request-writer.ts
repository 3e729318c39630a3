import { dropCacheMarks } from '../../canonical/cache-marks.ts';
import { dropToolErrorMarks } from '../../canonical/tool-error-marks.ts';
import type { CanonicalMessage, CanonicalPart, CanonicalRequest, CanonicalTool } from '../../canonical/canonical-request.ts';
import type { DroppedFields } from '../../canonical/dropped-fields.ts';
import { inlineFileName } from '../../canonical/base64-data-url.ts';
import { endUserIdWithin, OPENAI_END_USER_MAX_LENGTH } from '../../canonical/end-user-id.ts';
import { dropBudgetWithoutEffort, reasoningForModel, reasonsLikeOpenAi, samplingForModel } from '../../canonical/reasoning-settings.ts';
import { responsesOutputCap } from '../output-cap.ts';
import { ENCRYPTED_REASONING_INCLUDE } from './reasoning-carrier.ts';
import type { UpstreamFeatures } from '../wire-protocol.ts';

type InputItem = Record<string, unknown>;

/**
 * A canonical request as a Responses request, for models only the Responses API serves:
 * - the instructions become `instructions`; system turns between others stay where they stand as
 *   developer messages;
 * - user turns become user messages (input_text, input_image, input_file), assistant turns one message of
 *   output_text, then each tool call as a function_call or custom_tool_call item; tool results become
 *   function_call_output or custom_tool_call_output items. Earlier reasoning goes back only as OpenAI's own
 *   encrypted items: a Messages client carries them in its thinking blocks' signatures
 *   (openai-reasoning-signature.ts), and a request to a reasoning model asks for them
 *   (`include: ["reasoning.encrypted_content"]`); a chat client cannot carry them;
 * - tools are flat (`{type: "function", name, parameters}`), custom tools keep their format;
 * - `store: false`: the gateway keeps the conversation in the client's hands, as the client's protocol does;
 * - the cap is the client's within the model's largest answer, and at least 16, the smallest the API takes
 *   (output-cap.ts).
 * Stop sequences and cache marks have no Responses form and are dropped and named (OpenAI caches prompts by
 * itself). OpenAI's reasoning models get no sampling parameters, and an Anthropic client's thinking only if
 * the model reasons (reasoning-settings.ts).
 */
export function writeResponsesRequest(request: CanonicalRequest, upstreamModel: string, features: UpstreamFeatures): Record<string, unknown> {
  const { dropped } = request;
  // Earlier reasoning goes back to a model that reasons only: the others take no reasoning items.
  const reasons = reasonsLikeOpenAi(upstreamModel, features);
  const input = request.messages.flatMap((message) => writeMessage(message, dropped, reasons));
  const tools = request.tools.map(writeTool);
  const hasTools = tools.length > 0;
  const choice = request.toolChoice;
  if (!hasTools && choice !== undefined && choice !== 'none') dropped.add('tool_choice');
  if (request.stop) dropped.add('stop');
  dropCacheMarks(request);
  dropToolErrorMarks(request);
  const instructions = request.system.filter((text) => text !== '').join('\n\n');
  dropBudgetWithoutEffort(request);
  const reasoning = reasoningForModel(request, upstreamModel, features);
  const cap = responsesOutputCap(request, features);
  return {
    model: upstreamModel,
    ...(instructions ? { instructions } : {}),
    input,
    ...(hasTools ? { tools } : {}),
    ...(hasTools && choice !== undefined ? { tool_choice: typeof choice === 'string' ? choice : toolChoiceFor(choice.name, request.tools) } : {}),
    ...(hasTools && request.parallelToolCalls === false ? { parallel_tool_calls: false } : {}),
    ...(cap ? { max_output_tokens: cap } : {}),
    ...samplingForModel(request, upstreamModel, features),
    ...(reasoning?.effort || reasoning?.summary
      ? { reasoning: { ...(reasoning.effort ? { effort: reasoning.effort } : {}), ...(reasoning.summary ? { summary: reasoning.summary } : {}) } }
      : {}),
    // With `store: false` OpenAI keeps no reasoning between turns: a reasoning model's comes back encrypted,
    // for the client to carry (other models refuse the include: "Encrypted content is not supported").
    ...(reasons ? { include: [ENCRYPTED_REASONING_INCLUDE] } : {}),
    ...(request.responseFormat ? { text: { format: writeTextFormat(request.responseFormat) } } : {}),
    ...(request.user ? { safety_identifier: endUserIdWithin(request.user, OPENAI_END_USER_MAX_LENGTH) } : {}),
    store: false,
    stream: request.stream,
  };
}

function writeMessage(message: CanonicalMessage, dropped: DroppedFields, withReasoning: boolean): InputItem[] {
  switch (message.role) {
    case 'system': {
      const text = message.parts.flatMap((part) => (part.type === 'text' && part.text !== '' ? [part.text] : [])).join('\n\n');
      return text ? [{ type: 'message', role: 'developer', content: [{ type: 'input_text', text }] }] : [];
    }
    case 'assistant':
      return writeAssistant(message.parts, withReasoning);
    case 'user':
    case 'tool':
      return writeUserTurn(message.parts, dropped);
  }
}

function writeUserTurn(parts: readonly CanonicalPart[], dropped: DroppedFields): InputItem[] {
  const outputs: InputItem[] = [];
  const content: InputItem[] = [];
  for (const part of parts) {
    if (part.type === 'tool-result') outputs.push(writeToolResult(part));
    else {
      const written = writeUserPart(part, dropped);
      if (written) content.push(written);
    }
  }
  return content.length > 0 ? [...outputs, { type: 'message', role: 'user', content }] : outputs;
}

function writeUserPart(part: CanonicalPart, dropped: DroppedFields): InputItem | undefined {
  switch (part.type) {
    case 'text':
      return part.text ? { type: 'input_text', text: part.text } : undefined;
    case 'image':
      return { type: 'input_image', image_url: part.url, detail: 'auto' };
    case 'file':
      if (part.dataUrl) return { type: 'input_file', file_data: part.dataUrl, filename: inlineFileName(part.dataUrl, part.filename) };
      return part.text ? { type: 'input_text', text: part.text } : undefined;
    default:
      dropped.add(`messages[].content[type=${part.type}]`);
      return undefined;
  }
}

function writeToolResult(part: Extract<CanonicalPart, { type: 'tool-result' }>): InputItem {
  const only = part.content[0];
  const output =
    part.content.length === 1 && only?.type === 'text'
      ? only.text
      : part.content.map((item) => (item.type === 'text' ? { type: 'input_text', text: item.text } : { type: 'input_image', image_url: item.url, detail: 'auto' }));
  return { type: part.custom ? 'custom_tool_call_output' : 'function_call_output', call_id: part.callId, output: part.content.length === 0 ? '' : output };
}

function writeAssistant(parts: readonly CanonicalPart[], withReasoning: boolean): InputItem[] {
  // OpenAI's reasoning, carried by the client, first: it led to the turn's text and calls.
  const items: InputItem[] = withReasoning
    ? parts.flatMap((part) => (part.type === 'reasoning' && part.encrypted ? [{ type: 'reasoning', summary: [], encrypted_content: part.encrypted }] : []))
    : [];
  const text = parts.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');
  if (text) items.push({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] });
  for (const part of parts) {
    if (part.type !== 'tool-call') continue;
    items.push(
      part.custom
        ? { type: 'custom_tool_call', call_id: part.id, name: part.name, input: part.arguments }
        : { type: 'function_call', call_id: part.id, name: part.name, arguments: part.arguments },
    );
  }
  return items;
}

function writeTool(tool: CanonicalTool): Record<string, unknown> {
  const description = tool.description ? { description: tool.description } : {};
  if (tool.custom) return { type: 'custom', name: tool.name, ...description, ...(tool.custom.format ? { format: tool.custom.format } : {}) };
  return {
    type: 'function',
    name: tool.name,
    ...description,
    parameters: tool.parameters ?? { type: 'object', properties: {} },
    // OpenAI's Responses API makes function tools strict unless told otherwise; other protocols never are.
    strict: tool.strict ?? false,
  };
}

function toolChoiceFor(name: string, tools: readonly CanonicalTool[]): Record<string, unknown> {
  return { type: tools.find((tool) => tool.name === name)?.custom ? 'custom' : 'function', name };
}

function writeTextFormat(format: NonNullable<CanonicalRequest['responseFormat']>): Record<string, unknown> {
  if (format.type === 'json_object') return { type: 'json_object' };
  return { type: 'json_schema', name: format.name, schema: format.schema, ...(format.strict !== undefined ? { strict: format.strict } : {}) };
}
