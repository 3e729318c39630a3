import type { CanonicalMessage, CanonicalPart, CanonicalRequest } from '../../canonical/canonical-request.ts';
import type { DroppedFields } from '../../canonical/dropped-fields.ts';
import { ANTHROPIC_END_USER_MAX_LENGTH, endUserIdWithin } from '../../canonical/end-user-id.ts';
import { jsonToolCallInput, jsonToolInputSchema } from '../../canonical/custom-tool-input.ts';
import { strictToolCallId } from '../../canonical/strict-tool-call-id.ts';
import { readableImageType, readBase64DataUrl } from '../../canonical/base64-data-url.ts';
import type {
  AnthropicDocumentBlock,
  AnthropicImageBlock,
  AnthropicMessagesRequestBody,
  AnthropicRequestBlock,
  AnthropicRequestMessage,
  AnthropicTextBlock,
  AnthropicTool,
  AnthropicToolChoice,
} from './anthropic-request-types.ts';
import { claudeSampling } from '../claude-sampling.ts';
import { OPENING_USER_TEXT, opensWithUser } from '../opening-user-turn.ts';
import { outputCap } from '../output-cap.ts';
import type { UpstreamFeatures } from '../wire-protocol.ts';
import { writeCacheControl } from './messages-cache-control.ts';
import { writeOutputFormat } from './messages-output-format.ts';
import { writeThinking } from './messages-thinking.ts';
import { DEFAULT_MAX_TOKENS, STREAMED_DEFAULT_MAX_TOKENS } from './reasoning-effort-budget.ts';

/**
 * A canonical request as an Anthropic Messages request:
 * - the instructions and every system turn, wherever it stands, are hoisted into `system`;
 * - tool results become `tool_result` blocks of a user message, first in it (Anthropic requires them
 *   before any other block); consecutive turns of one role are merged (user and assistant must alternate),
 *   so the results of parallel tool calls land in one user message;
 * - turns left without content are omitted, and a final assistant turn (a prefill) loses its trailing
 *   whitespace, which Anthropic rejects; empty text blocks are left out (Anthropic rejects them too); a
 *   conversation that does not open with a user turn gets one before it (opening-user-turn.ts);
 * - max_tokens is required: the client's cap (at most the model's maximum, output-cap.ts), else 32,000 for a
 *   stream to a model whose maximum is known (at most that), else 4,096 (reasoning-effort-budget.ts);
 * - temperature is capped at 1 (Anthropic's range is 0–1, OpenAI's 0–2), and it and top_p are sent as far as
 *   the model takes them: neither to Claude Opus 4.7 and later, one of the two to Claude 4.1–4.6
 *   (claude-sampling.ts);
 * - a reasoning effort becomes thinking in the form the upstream model takes: adaptive thinking with an
 *   effort level on Claude 4.6 and later, extended thinking with a budget on older models
 *   (messages-thinking.ts, which also says when thinking is left out and what goes with it);
 * - a custom tool (free text) becomes a tool with one string property, `input` (custom-tool-input.ts), and
 *   earlier calls of it carry their text there;
 * - a tool call id Anthropic refuses (another provider's, as Kimi's `functions.read_file:1`) is rewritten
 *   alike in the call and its result (strict-tool-call-id.ts);
 * - cache marks become `cache_control` on the blocks and tools they mark (the last four, messages-cache-control.ts).
 * - a JSON Schema answer format becomes structured outputs (`output_config.format`) on the models that
 *   take them (messages-output-format.ts).
 * JSON mode, and media Anthropic cannot take, are dropped and named.
 */
export function writeMessagesRequest(request: CanonicalRequest, upstreamModel: string, features: UpstreamFeatures): Record<string, unknown> {
  const { dropped } = request;
  // Blocks the client marked for caching, by identity: merging and reordering keep the mark with its block.
  const marked = new Set<object>();
  const system = [
    ...request.system.map((text, index) => markIf(marked, request.systemCache?.includes(index) === true, textBlock(text))),
    ...request.messages.filter((message) => message.role === 'system').flatMap((message) => textsOf(message.parts, marked)),
  ].filter((block) => block !== undefined);
  const messages = writeConversation(request.messages, dropped, marked);
  const tools = writeTools(request, marked);
  writeCacheControl(
    [{ place: 'tools', blocks: tools }, { place: 'system', blocks: system }, ...messages.map((message) => ({ place: 'messages' as const, blocks: message.content }))],
    marked,
    dropped,
  );
  const toolChoice = writeToolChoice(request, tools.length > 0);
  const outputFormat = writeOutputFormat(request, upstreamModel);
  const body: AnthropicMessagesRequestBody = {
    model: upstreamModel,
    max_tokens: outputCap(request, features) ?? defaultMaxTokens(request, features),
    messages,
    ...(system.length > 0 ? { system } : {}),
    ...writeSampling(request, upstreamModel),
    ...(request.stop ? { stop_sequences: request.stop } : {}),
    stream: request.stream,
    ...(tools.length > 0 ? { tools } : {}),
    ...(toolChoice ? { tool_choice: toolChoice } : {}),
    ...(request.user ? { metadata: { user_id: endUserIdWithin(request.user, ANTHROPIC_END_USER_MAX_LENGTH) } } : {}),
    ...(outputFormat ? { output_config: { format: outputFormat } } : {}),
  };
  writeThinking(body, request, upstreamModel, features.outputTokenLimit);
  return { ...body };
}

/** The max_tokens of a request whose client set none (Anthropic requires one). */
function defaultMaxTokens(request: CanonicalRequest, features: UpstreamFeatures): number {
  const limit = features.outputTokenLimit;
  return request.stream && limit !== undefined ? Math.min(STREAMED_DEFAULT_MAX_TOKENS, limit) : DEFAULT_MAX_TOKENS;
}

/** The sampling the upstream model takes (claude-sampling.ts), in the Messages API's names. */
function writeSampling(request: CanonicalRequest, upstreamModel: string): Pick<AnthropicMessagesRequestBody, 'temperature' | 'top_p'> {
  const { temperature, topP } = claudeSampling(request, upstreamModel);
  return { ...(temperature !== undefined ? { temperature } : {}), ...(topP !== undefined ? { top_p: topP } : {}) };
}

/** Anthropic rejects text blocks that are empty or only whitespace, so those are left out. */
function textBlock(text: string | undefined): AnthropicTextBlock | undefined {
  return text && text.trim() !== '' ? { type: 'text', text } : undefined;
}

function textsOf(parts: readonly CanonicalPart[], marked: Set<object>): Array<AnthropicTextBlock | undefined> {
  return parts.map((part) => (part.type === 'text' ? markIf(marked, part.cache === true, textBlock(part.text)) : undefined));
}

function markIf<Block extends object | undefined>(marked: Set<object>, cache: boolean, block: Block): Block {
  if (cache && block) marked.add(block);
  return block;
}

function writeConversation(canonical: readonly CanonicalMessage[], dropped: DroppedFields, marked: Set<object>): AnthropicRequestMessage[] {
  const messages: AnthropicRequestMessage[] = [];
  const append = (role: 'user' | 'assistant', blocks: AnthropicRequestBlock[]) => {
    if (blocks.length === 0) return;
    const last = messages.at(-1);
    if (last?.role === role) last.content.push(...blocks);
    else messages.push({ role, content: blocks });
  };
  for (const message of canonical) {
    if (message.role === 'system') continue;
    const role = message.role === 'assistant' ? 'assistant' : 'user';
    append(
      role,
      message.parts.flatMap((part) => {
        const written = writePart(part, dropped);
        // A mark caches the prompt up to its part: it goes on the part's last block.
        const last = written.at(-1);
        markIf(marked, part.cache === true && last?.type !== 'thinking', last);
        return written;
      }),
    );
  }
  for (const message of messages) if (message.role === 'user') putToolResultsFirst(message);
  trimFinalAssistant(messages);
  if (!opensWithUser(messages)) messages.unshift({ role: 'user', content: [{ type: 'text', text: OPENING_USER_TEXT }] });
  return messages;
}

function writePart(part: CanonicalPart, dropped: DroppedFields): AnthropicRequestBlock[] {
  switch (part.type) {
    case 'text': {
      const block = textBlock(part.text);
      return block ? [block] : [];
    }
    case 'image': {
      const block = imageBlock(part.url);
      if (!block) dropped.add('messages[].content[type=image_url]');
      return block ? [block] : [];
    }
    case 'file': {
      const block = documentBlock(part);
      if (!block) dropped.add('messages[].content[type=file]');
      return block ? [block] : [];
    }
    case 'reasoning':
      // Anthropic accepts earlier thinking only with its own signature.
      return part.signature ? [{ type: 'thinking', thinking: part.text, signature: part.signature }] : [];
    case 'tool-call':
      return [{ type: 'tool_use', id: strictToolCallId(part.id), name: part.name, input: jsonToolCallInput(part) }];
    case 'tool-result': {
      const only = part.content[0];
      const blocks: Array<AnthropicTextBlock | AnthropicImageBlock> = [];
      for (const item of part.content) {
        const block = item.type === 'text' ? textBlock(item.text) : imageBlock(item.url);
        if (block) blocks.push(block);
      }
      const content = part.content.length === 1 && only?.type === 'text' ? only.text : blocks;
      return [{ type: 'tool_result', tool_use_id: strictToolCallId(part.callId), content: part.content.length === 0 ? '' : content, ...(part.isError ? { is_error: true } : {}) }];
    }
  }
}

/**
 * `data:` URLs of an image type Anthropic reads become base64 sources (`image/jpg` as JPEG), http(s) URLs url
 * sources; anything else (another image type, a file id) has no Anthropic form.
 */
function imageBlock(url: string): AnthropicImageBlock | undefined {
  const dataUrl = readBase64DataUrl(url);
  if (dataUrl) {
    const mediaType = readableImageType(dataUrl.mediaType);
    return mediaType ? { type: 'image', source: { type: 'base64', media_type: mediaType, data: dataUrl.data } } : undefined;
  }
  if (/^https?:\/\//i.test(url)) return { type: 'image', source: { type: 'url', url } };
  return undefined;
}

/** A base64 PDF as a document block (other files have no Anthropic form); a text file as a text document. */
function documentBlock(part: Extract<CanonicalPart, { type: 'file' }>): AnthropicDocumentBlock | undefined {
  const title = part.filename ? { title: part.filename } : {};
  if (part.text !== undefined && !part.dataUrl) return { type: 'document', source: { type: 'text', media_type: 'text/plain', data: part.text }, ...title };
  const dataUrl = readBase64DataUrl(part.dataUrl ?? '');
  if (dataUrl?.mediaType !== 'application/pdf') return undefined;
  return { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: dataUrl.data }, ...title };
}

function putToolResultsFirst(message: AnthropicRequestMessage): void {
  const results = message.content.filter((block) => block.type === 'tool_result');
  const rest = message.content.filter((block) => block.type !== 'tool_result');
  message.content = [...results, ...rest];
}

function trimFinalAssistant(messages: AnthropicRequestMessage[]): void {
  const last = messages.at(-1);
  if (last?.role !== 'assistant') return;
  const finalBlock = last.content.at(-1);
  if (finalBlock?.type === 'text') finalBlock.text = finalBlock.text.trimEnd();
}

/** Function tools (`parameters` → `input_schema`, which Anthropic requires to be an object schema); custom tools as one `input` string. */
function writeTools(request: CanonicalRequest, marked: Set<object>): AnthropicTool[] {
  // OpenAI's strict schemas have no counterpart here (messages-output-format.ts): the model is asked, not held to it.
  if (request.tools.some((tool) => tool.strict === true)) request.dropped.add('tools[].strict');
  return request.tools.map((tool) =>
    markIf<AnthropicTool>(marked, tool.cache === true, {
      name: tool.name,
      ...(tool.description ? { description: tool.description } : {}),
      input_schema: jsonToolInputSchema(tool),
    }),
  );
}

/**
 * auto → auto, none → none, required → any, a named tool → tool; one call at a time becomes
 * `disable_parallel_tool_use: true` (on auto when no choice was given). Without tools there is no choice.
 */
function writeToolChoice(request: CanonicalRequest, hasTools: boolean): AnthropicToolChoice | undefined {
  const choice = request.toolChoice;
  if (!hasTools) {
    if (choice !== undefined && choice !== 'none') request.dropped.add('tool_choice');
    if (request.parallelToolCalls === false) request.dropped.add('parallel_tool_calls');
    return undefined;
  }
  const serial = request.parallelToolCalls === false ? { disable_parallel_tool_use: true } : {};
  if (choice === 'none') return { type: 'none' };
  if (choice === 'required') return { type: 'any', ...serial };
  if (typeof choice === 'object') return { type: 'tool', name: choice.name, ...serial };
  if (choice === 'auto' || request.parallelToolCalls === false) return { type: 'auto', ...serial };
  return undefined;
}
