import type { CanonicalMessage, CanonicalPart, CanonicalRequest } from '../../canonical/canonical-request.ts';
import { jsonToolCallInput, jsonToolInputSchema } from '../../canonical/custom-tool-input.ts';
import type { DroppedFields } from '../../canonical/dropped-fields.ts';
import { strictToolCallId } from '../../canonical/strict-tool-call-id.ts';
import { readableImageType, readBase64DataUrl, type ReadableImageType } from '../../canonical/base64-data-url.ts';
import { claudeSampling } from '../claude-sampling.ts';
import { OPENING_USER_TEXT, opensWithUser } from '../opening-user-turn.ts';
import { outputCap } from '../output-cap.ts';
import type { UpstreamFeatures } from '../wire-protocol.ts';
import { writeCachePoints } from './converse-cache-points.ts';
import type {
  ConverseDocumentBlock,
  ConverseImageBlock,
  ConverseImageFormat,
  ConverseMessage,
  ConverseRequestBlock,
  ConverseRequestBody,
  ConverseTool,
  ConverseToolChoice,
} from './converse-request-types.ts';

/**
 * A canonical request as a Converse request (the model is in the path, streaming is the operation):
 * - the instructions and every system turn are hoisted into `system`; turns of one role are merged (user
 *   and assistant must alternate), tool results first in their user turn; blank text is left out (Bedrock
 *   refuses it) and turns left empty are omitted; a conversation that does not open with a user turn gets
 *   one before it (opening-user-turn.ts);
 * - images and PDFs go as base64 bytes (`data:` URLs); images by http(s) URL, which Converse cannot
 *   fetch, and other files are dropped and named; a text file becomes a `txt` document;
 * - max_tokens, temperature (capped at 1, the range of Bedrock's models), top_p and stop sequences go to
 *   `inferenceConfig` (temperature and top_p as far as a Claude model takes them, claude-sampling.ts);
 *   tools to `toolConfig` (a custom tool as one `input` string, custom-tool-input.ts);
 *   tool choice auto → auto, required → any, a named tool → tool, none → no tools offered (Converse has
 *   no "none"); a conversation with earlier tool calls and no tools in this turn gets a placeholder tool
 *   (NO_TOOLS_PLACEHOLDER), as Converse requires; tool call ids Converse refuses are rewritten alike in
 *   calls and results (strict-tool-call-id.ts);
 * - the client's cache marks become `cachePoint` blocks after what they mark, in `system`, message content
 *   and `toolConfig.tools`, where the model caches (converse-cache-points.ts);
 * - what Converse has no common field for is dropped and named: one call at a time,
 *   reasoning effort (each model takes its own `additionalModelRequestFields`), structured output, user,
 *   and earlier reasoning (only its own model could read it back).
 */
export function writeConverseRequest(request: CanonicalRequest, upstreamModel: string, features: UpstreamFeatures): Record<string, unknown> {
  const { dropped } = request;
  // Blocks the client marked for caching, by identity: merging and reordering keep the mark with its block.
  const marked = new Set<object>();
  const system = [
    ...request.system.map((text, index) => ({ text, cache: request.systemCache?.includes(index) === true })),
    ...request.messages.filter((message) => message.role === 'system').flatMap(textsOf),
  ]
    .filter(({ text }) => text.trim() !== '')
    .map(({ text, cache }) => markIf(marked, cache, { text }));
  const inferenceConfig = {
    ...(request.maxOutputTokens !== undefined ? { maxTokens: outputCap(request, features) } : {}),
    ...claudeSampling(request, upstreamModel),
    ...(request.stop && request.stop.length > 0 ? { stopSequences: request.stop } : {}),
  };
  const tools = request.tools.map((tool) =>
    markIf<ConverseTool>(marked, tool.cache === true, {
      toolSpec: {
        name: tool.name,
        ...(tool.description ? { description: tool.description } : {}),
        inputSchema: { json: jsonToolInputSchema(tool) },
      },
    }),
  );
  for (const [field, present] of [
    ['reasoning_effort', request.reasoning !== undefined && !request.reasoning.onlyIfModelReasons && request.reasoning.effort !== 'none'],
    ['thinking', request.reasoning?.onlyIfModelReasons === true],
    ['response_format', request.responseFormat !== undefined],
    ['user', request.user !== undefined],
    ['tools[].strict', request.tools.some((tool) => tool.strict === true)],
  ] as const) {
    if (present) dropped.add(field);
  }
  const messages = writeConversation(request.messages, dropped, marked);
  const toolConfig = writeToolConfig(request, tools, messages);
  writeCachePoints(
    [
      ...(toolConfig ? [{ field: 'tools' as const, blocks: toolConfig.tools }] : []),
      { field: 'system', blocks: system },
      ...messages.map((message) => ({ field: 'messages' as const, blocks: message.content })),
    ],
    marked,
    upstreamModel,
    dropped,
  );
  const body: ConverseRequestBody = {
    messages,
    ...(system.length > 0 ? { system } : {}),
    ...(Object.keys(inferenceConfig).length > 0 ? { inferenceConfig } : {}),
    ...(toolConfig ? { toolConfig } : {}),
  };
  return { ...body };
}

function textsOf(message: CanonicalMessage): Array<{ text: string; cache: boolean }> {
  return message.parts.flatMap((part) => (part.type === 'text' ? [{ text: part.text, cache: part.cache === true }] : []));
}

function markIf<Block extends object>(marked: Set<object>, cache: boolean, block: Block): Block {
  if (cache) marked.add(block);
  return block;
}

function writeConversation(canonical: readonly CanonicalMessage[], dropped: DroppedFields, marked: Set<object>): ConverseMessage[] {
  const messages: ConverseMessage[] = [];
  for (const message of canonical) {
    if (message.role === 'system') continue;
    const role = message.role === 'assistant' ? 'assistant' : 'user';
    const blocks = message.parts.flatMap((part) => {
      const written = writePart(part, dropped);
      // A mark caches the prompt up to its part: it goes after the part's last block.
      const last = written.at(-1);
      if (part.cache && last) marked.add(last);
      return written;
    });
    if (blocks.length === 0) continue;
    const last = messages.at(-1);
    if (last?.role === role) last.content.push(...blocks);
    else messages.push({ role, content: blocks });
  }
  for (const message of messages) {
    if (message.role === 'user') message.content = [...message.content.filter((block) => 'toolResult' in block), ...message.content.filter((block) => !('toolResult' in block))];
  }
  if (!opensWithUser(messages)) messages.unshift({ role: 'user', content: [{ text: OPENING_USER_TEXT }] });
  return messages;
}

function writePart(part: CanonicalPart, dropped: DroppedFields): ConverseRequestBlock[] {
  switch (part.type) {
    case 'text':
      return part.text.trim() === '' ? [] : [{ text: part.text }];
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
      dropped.add('messages[].content[type=reasoning]');
      return [];
    case 'tool-call':
      return [{ toolUse: { toolUseId: strictToolCallId(part.id), name: part.name, input: jsonToolCallInput(part) } }];
    case 'tool-result': {
      const content = part.content.flatMap((item): Array<{ text: string } | ConverseImageBlock> => {
        if (item.type === 'text') return item.text.trim() === '' ? [] : [{ text: item.text }];
        const image = imageBlock(item.url);
        return image ? [image] : [];
      });
      // A result without content still answers its call: Converse takes no empty list.
      return [{ toolResult: { toolUseId: strictToolCallId(part.callId), content: content.length > 0 ? content : [{ text: '(no output)' }], ...(part.isError ? { status: 'error' as const } : {}) } }];
    }
  }
}

const IMAGE_FORMATS: Readonly<Record<ReadableImageType, ConverseImageFormat>> = { 'image/png': 'png', 'image/jpeg': 'jpeg', 'image/gif': 'gif', 'image/webp': 'webp' };

function imageBlock(url: string): ConverseImageBlock | undefined {
  const dataUrl = readBase64DataUrl(url);
  const mediaType = dataUrl && readableImageType(dataUrl.mediaType);
  return dataUrl && mediaType ? { image: { format: IMAGE_FORMATS[mediaType], source: { bytes: dataUrl.data } } } : undefined;
}

/**
 * A PDF (base64 `data:` URL) or a text file as a document. Converse takes a name of letters, digits,
 * spaces, hyphens, parentheses and brackets only: other characters become hyphens.
 */
function documentBlock(part: Extract<CanonicalPart, { type: 'file' }>): ConverseDocumentBlock | undefined {
  const name = (part.filename ?? 'document').replace(/[^A-Za-z0-9 ()[\]-]+/g, '-').replace(/\s+/g, ' ').trim() || 'document';
  if (part.text !== undefined && !part.dataUrl) return { document: { format: 'txt', name, source: { bytes: Buffer.from(part.text, 'utf8').toString('base64') } } };
  const dataUrl = readBase64DataUrl(part.dataUrl ?? '');
  if (dataUrl?.mediaType !== 'application/pdf') return undefined;
  return { document: { format: 'pdf', name, source: { bytes: dataUrl.data } } };
}

/**
 * Converse refuses a conversation holding toolUse or toolResult blocks without a toolConfig ("The toolConfig
 * field must be defined when using toolUse and toolResult content blocks"), which is what a client sends
 * when it offers no tools in a turn after earlier calls (a summary, a last answer). Such a request gets
 * this one tool, which tells the model not to call it.
 */
export const NO_TOOLS_PLACEHOLDER: ConverseTool = {
  toolSpec: { name: 'no_tools_available', description: 'No tool is available in this turn: never call this one.', inputSchema: { json: { type: 'object', properties: {} } } },
};

function writeToolConfig(request: CanonicalRequest, tools: ConverseTool[], messages: readonly ConverseMessage[]): ConverseRequestBody['toolConfig'] {
  // Converse has no "none": a turn that allows no call is offered no tools.
  const offered = request.toolChoice === 'none' ? [] : tools;
  const toolChoice = writeToolChoice(request, offered.length > 0);
  if (offered.length > 0) return { tools: offered, ...(toolChoice ? { toolChoice } : {}) };
  const holdsToolBlocks = messages.some((message) => message.content.some((block) => 'toolUse' in block || 'toolResult' in block));
  return holdsToolBlocks ? { tools: [NO_TOOLS_PLACEHOLDER] } : undefined;
}

function writeToolChoice(request: CanonicalRequest, hasTools: boolean): ConverseToolChoice | undefined {
  const choice = request.toolChoice;
  if (request.parallelToolCalls === false) request.dropped.add('parallel_tool_calls');
  if (choice === undefined || choice === 'none') return undefined;
  if (!hasTools) {
    request.dropped.add('tool_choice');
    return undefined;
  }
  if (choice === 'auto') return { auto: {} };
  if (choice === 'required') return { any: {} };
  return { tool: { name: choice.name } };
}
