import * as z from 'zod';
import { GatewayError } from '../../core/errors.ts';
import type { RoutableBody } from '../../pipeline/generation-endpoint.ts';
import { chatMessageSchema } from '../openai-chat/chat-wire-types.ts';
import { parseModelRequest, type RequestBodyJson } from '../parse-model-request.ts';
import { responsesInputItemSchema } from '../openai-responses/responses-request-types.ts';
import { inputFromChatMessages, type InputItem } from './editor-chat-messages.ts';
import { repairInput } from './editor-input-repair.ts';
import { compactPromptText, type TextCompaction } from './editor-prompt-compression.ts';
import { customToolNames, editorToolChoiceSchema, editorToolSchema, flattenToolChoice, flattenTools } from './editor-tools.ts';

/**
 * The editor's body, in either of the shapes it sends to the same URL: Responses-shaped (`input`, flat
 * tools, `reasoning`, `include`, `store`, `metadata.cursorConversationId`) or chat-shaped (`messages`,
 * nested tools, and in Ask mode a flat custom ApplyPatch among them). Every other field passes on.
 */
const editorBodySchema = z.looseObject({
  model: z.string().min(1),
  // Items are checked on their own (inputItemsOf), so that a defect names the item's field.
  input: z.union([z.string(), z.array(z.unknown())]).nullish(),
  messages: z.array(chatMessageSchema).nullish(),
  instructions: z.string().nullish(),
  tools: z.array(editorToolSchema).nullish(),
  tool_choice: editorToolChoiceSchema.nullish(),
  stream: z.boolean().nullish(),
  stream_options: z.looseObject({ include_usage: z.boolean().nullish() }).nullish(),
  metadata: z.record(z.string(), z.unknown()).nullish(),
  max_output_tokens: z.number().int().positive().nullish(),
  max_completion_tokens: z.number().int().positive().nullish(),
  max_tokens: z.number().int().positive().nullish(),
  reasoning: z.looseObject({ effort: z.string().nullish(), summary: z.string().nullish() }).nullish(),
  reasoning_effort: z.string().nullish(),
  response_format: z.looseObject({ type: z.string(), json_schema: z.record(z.string(), z.unknown()).nullish() }).nullish(),
  prompt_cache_key: z.string().nullish(),
  service_tier: z.string().nullish(),
  store: z.boolean().nullish(),
  background: z.boolean().nullish(),
  /** Routing-only fields (spec 2.2): consumed by the gateway, never sent upstream. */
  models: z.array(z.string().min(1)).optional(),
  route: z.literal('fallback').optional(),
  provider: z.record(z.string(), z.unknown()).nullish(),
});

/** Chat-only fields the Responses API refuses, each either carried over above or without a Responses form. */
const CHAT_ONLY_FIELDS = [
  'messages', 'stream_options', 'metadata', 'max_tokens', 'max_completion_tokens', 'reasoning_effort', 'response_format',
  'n', 'stop', 'logprobs', 'presence_penalty', 'frequency_penalty', 'seed', 'logit_bias', 'functions', 'function_call',
  'modalities', 'audio', 'prediction', 'web_search_options',
] as const;

/** Fields the profile writes anew (or leaves out when the editor sent none, or null). */
const REWRITTEN_FIELDS = ['instructions', 'input', 'tools', 'tool_choice', 'max_output_tokens', 'reasoning', 'prompt_cache_key', 'service_tier'] as const;

/**
 * Where the editor profile keeps what it learnt of a request: under a symbol, which JSON never
 * serialises, so it rides along with the body (routing-field removal copies it) and never goes upstream.
 */
export const EDITOR_PROFILE: unique symbol = Symbol('editor profile');

export interface EditorProfile {
  shape: 'responses' | 'chat';
  /** The client asked for the usage chunk (`stream_options.include_usage`). */
  includeUsage: boolean;
  /** The editor's conversation (`metadata.cursorConversationId`). */
  conversationId?: string;
  /** What prompt compression changed. */
  compaction: readonly TextCompaction[];
}

/** The editor's request as the profile made it: a Responses body, whatever the editor sent. */
export interface EditorRequest extends RoutableBody {
  input: InputItem[];
  max_output_tokens?: number;
  instructions?: string;
  [EDITOR_PROFILE]: EditorProfile;
}

/** The profile of a request body the editor endpoint parsed (routing-field removal keeps it). */
export function editorProfileOf(body: Record<string, unknown>): EditorProfile {
  const profile = (body as Partial<Pick<EditorRequest, typeof EDITOR_PROFILE>>)[EDITOR_PROFILE];
  if (!profile) throw new Error('Not a body the editor endpoint parsed.');
  return profile;
}

/**
 * Parses the editor's body (a defect is a 400 naming the field) and applies the editor profile: both
 * shapes become one Responses body (notes on each step in docs/decisions/editor-route.md), tools flat,
 * history repaired, the conversation id as the prompt cache key, and the prompt compressed.
 */
export function parseEditorRequest(sent: RequestBodyJson): EditorRequest {
  const body = parseModelRequest(sent, editorBodySchema);
  if (body.background === true) {
    throw new GatewayError('invalid_request', 'Background responses are not supported: the gateway meters an answer while relaying it. Send the request without "background".', {
      code: 'background_not_supported',
      param: 'background',
    });
  }
  const shape = shapeOf(body);
  const compaction: TextCompaction[] = [];
  const tools = body.tools ?? [];
  const customTools = customToolNames(tools);
  const received = shape === 'responses' ? inputItemsOf(body.input) : inputFromChatMessages(body.messages ?? []);
  const input = repairInput(received, { customTools, store: body.store === true, compaction }).map((item) => compactItem(item, compaction));
  const conversationId = typeof body.metadata?.cursorConversationId === 'string' ? body.metadata.cursorConversationId : undefined;
  const maxOutputTokens = body.max_output_tokens ?? body.max_completion_tokens ?? body.max_tokens;
  const reasoning = body.reasoning ?? (body.reasoning_effort ? { effort: body.reasoning_effort } : undefined);
  const textFormat = body.response_format ? { format: textFormatOf(body.response_format) } : undefined;
  const request: Record<string, unknown> = { ...body };
  for (const field of [...CHAT_ONLY_FIELDS, ...REWRITTEN_FIELDS]) delete request[field];
  const instructions = body.instructions ? compactPromptText(body.instructions, compaction) : undefined;
  return {
    ...request,
    model: body.model,
    ...(instructions ? { instructions } : {}),
    input,
    ...(tools.length > 0 ? { tools: flattenTools(tools, compaction) } : {}),
    ...(body.tool_choice ? { tool_choice: flattenToolChoice(body.tool_choice, customTools) } : {}),
    ...(maxOutputTokens ? { max_output_tokens: maxOutputTokens } : {}),
    ...(reasoning ? { reasoning } : {}),
    ...(textFormat && !request.text ? { text: textFormat } : {}),
    ...(body.prompt_cache_key || conversationId ? { prompt_cache_key: body.prompt_cache_key ?? conversationId } : {}),
    ...(body.service_tier ? { service_tier: body.service_tier === 'fast' ? 'priority' : body.service_tier } : {}),
    [EDITOR_PROFILE]: { shape, includeUsage: body.stream_options?.include_usage === true, ...(conversationId ? { conversationId } : {}), compaction },
  };
}

type EditorBody = z.infer<typeof editorBodySchema>;

/** Responses-shaped when it has `input` (the editor sends `messages: []` beside it), else chat-shaped. */
function shapeOf(body: EditorBody): EditorProfile['shape'] {
  const hasInput = body.input !== null && body.input !== undefined;
  const messages = body.messages?.length ?? 0;
  if (hasInput && messages > 0) {
    throw new GatewayError('invalid_request', 'The request has both "input" and "messages": send the conversation in one of them.', { code: 'ambiguous_conversation', param: 'messages' });
  }
  if (hasInput) return 'responses';
  if (body.messages) return 'chat';
  throw new GatewayError('invalid_request', 'The request has no conversation: send "input" (Responses-shaped) or "messages" (chat-shaped).', { code: 'missing_conversation', param: 'input' });
}

function inputItemsOf(input: EditorBody['input']): InputItem[] {
  if (typeof input === 'string') return [{ type: 'message', role: 'user', content: input }];
  const parsed = z.array(responsesInputItemSchema).safeParse(input ?? []);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = ['input', ...(issue?.path ?? [])].join('.');
  throw new GatewayError('invalid_request', `Invalid field "${field}": ${issue?.message ?? 'invalid value'}.`, { code: 'invalid_request_body', param: field });
}

/** Compresses the prompt text of system, developer and user messages; the assistant's turns and tool outputs stay as they are. */
function compactItem(item: InputItem, compaction: TextCompaction[]): InputItem {
  const type = item.type ?? 'message';
  if (type !== 'message' || item.role === 'assistant') return item;
  const content = item.content;
  if (typeof content === 'string') return { ...item, content: compactPromptText(content, compaction) };
  if (!Array.isArray(content)) return item;
  return {
    ...item,
    content: content.map((part: InputItem) => (typeof part.text === 'string' ? { ...part, text: compactPromptText(part.text, compaction) } : part)),
  };
}

/** A chat `response_format` as the Responses `text.format`. */
function textFormatOf(format: NonNullable<EditorBody['response_format']>): Record<string, unknown> {
  if (format.type !== 'json_schema' || !format.json_schema) return { type: format.type };
  return { type: 'json_schema', ...format.json_schema };
}
