import { claudeSamplingRule, takesStructuredOutput, thinkingModeFor } from '../../shared/protocols/anthropic-messages/claude-thinking-mode.ts';

/** Anthropic's error body for a refused request, as its API writes it. */
function invalidRequest(message: string) {
  return { type: 'error', error: { type: 'invalid_request_error', message }, request_id: 'req_fake_refusal' };
}

/** The top-level fields the Messages API takes; others are refused ("Extra inputs are not permitted"). */
const MESSAGES_FIELDS = new Set([
  'model', 'messages', 'max_tokens', 'system', 'metadata', 'stop_sequences', 'stream', 'temperature', 'top_p', 'top_k',
  'tools', 'tool_choice', 'thinking', 'service_tier', 'container', 'mcp_servers', 'context_management', 'output_config',
  'output_format', 'inference_geo',
]);

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,128}$/;
const TOOL_USE_ID = /^[a-zA-Z0-9_-]+$/;
const IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);

type Block = { type?: string; text?: string; id?: string; tool_use_id?: string; name?: string; cache_control?: unknown; source?: { type?: string; media_type?: string } };
type Message = { role?: string; content?: string | Block[] };

/**
 * What Anthropic's Messages API answers with 400, as far as a translation can get it wrong: fields it does
 * not take; a conversation that does not open with a user turn; an empty turn or text block, a final assistant turn ending in whitespace; a `tool_use` without
 * its `tool_result` first in the next turn, or a result without its call; ids and tool names outside its
 * patterns; a tool without an object schema, a `tool_choice` without tools; more than four cache marks;
 * an image type it does not read; sampling the model refuses (claude-thinking-mode.ts); a thinking form the
 * model refuses, a budget under 1,024 or not below `max_tokens`, thinking with a temperature, a `top_p`
 * under 0.95 or a forced tool; a `metadata.user_id` over 256 characters. The wording is Anthropic's where
 * users have reported it. Returns undefined for a request it takes.
 */
export function refusalOfAnthropic(body: Record<string, unknown>): unknown {
  const reason = anthropicRefusalReason(body);
  return reason === undefined ? undefined : invalidRequest(reason);
}

/** The message of refusalOfAnthropic's answer (Bedrock's InvokeModel gives it in its own error body). */
export function anthropicRefusalReason(body: Record<string, unknown>): string | undefined {
  for (const field of Object.keys(body)) if (!MESSAGES_FIELDS.has(field)) return `${field}: Extra inputs are not permitted`;
  const model = String(body.model ?? '');
  if (!Number.isInteger(body.max_tokens) || (body.max_tokens as number) < 1) return 'max_tokens: Field required';
  const maxTokens = body.max_tokens as number;
  const messages = (body.messages ?? []) as Message[];
  if (!Array.isArray(messages) || messages.length === 0) return 'messages: at least one message is required';
  if (messages[0]?.role !== 'user') return 'messages: first message must use the "user" role';
  const conversation = refusalOfConversation(messages);
  if (conversation) return conversation;
  const tools = (body.tools ?? []) as Array<{ name?: string; type?: string; input_schema?: { type?: string } }>;
  for (const [index, tool] of tools.entries()) {
    if (!TOOL_NAME.test(tool.name ?? '')) return `tools.${index}.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'`;
    if (tool.type === undefined || tool.type === 'custom') {
      if (tool.input_schema?.type !== 'object') return `tools.${index}.custom.input_schema.type: Input should be 'object'`;
    }
  }
  const toolChoice = body.tool_choice as { type?: string } | undefined;
  if (toolChoice && toolChoice.type !== 'none' && tools.length === 0) return 'tool_choice may only be specified while providing tools.';
  const marks = countCacheMarks(body.system) + countCacheMarks(tools) + messages.reduce((sum, message) => sum + countCacheMarks(message.content), 0);
  if (marks > 4) return `A maximum of 4 blocks with cache_control may be provided. Found ${marks}.`;
  if (typeof body.temperature === 'number' && (body.temperature < 0 || body.temperature > 1)) return 'temperature: Input should be less than or equal to 1';
  const sampling = claudeSamplingRule(model);
  if (sampling === 'neither' && (body.temperature !== undefined || body.top_p !== undefined || body.top_k !== undefined)) return '`temperature` is deprecated for this model.';
  if (sampling === 'either' && body.temperature !== undefined && body.top_p !== undefined) return '`temperature` and `top_p` cannot both be specified for this model. Please use only one.';
  const thinking = refusalOfThinking(body, model, maxTokens);
  if (thinking) return thinking;
  const format = (body.output_config as { format?: { type?: string; schema?: unknown } } | undefined)?.format;
  if (format !== undefined) {
    if (!takesStructuredOutput(model)) return `'${model}' does not support output format.`;
    const unsupported = unsupportedSchemaPart(format.schema);
    if (unsupported) return `output_config.format.schema: ${unsupported}`;
  }
  const metadata = body.metadata as { user_id?: string } | undefined;
  if (typeof metadata?.user_id === 'string' && metadata.user_id.length > 256) return 'metadata.user_id: String should have at most 256 characters';
  return undefined;
}

function refusalOfConversation(messages: readonly Message[]): string | undefined {
  for (const [index, message] of messages.entries()) {
    if (message.role !== 'user' && message.role !== 'assistant') return `messages.${index}.role: Input should be 'user' or 'assistant'`;
    const blocks: Block[] = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : (message.content ?? []);
    const last = index === messages.length - 1;
    if (blocks.length === 0 && !(last && message.role === 'assistant')) return `messages.${index}: all messages must have non-empty content except for the optional final assistant message`;
    for (const block of blocks) {
      if (block.type === 'text' && (block.text ?? '') === '') return 'messages: text content blocks must be non-empty';
      if (block.type === 'text' && (block.text ?? '').trim() === '') return 'messages: text content blocks must contain non-whitespace text';
      if (block.type === 'tool_use' && !TOOL_USE_ID.test(block.id ?? '')) return `messages.${index}.content.tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'`;
      if (block.type === 'image' && block.source?.type === 'base64' && !IMAGE_TYPES.has(block.source.media_type ?? '')) {
        return `messages.${index}.content.image.source.base64.media_type: Input should be 'image/jpeg', 'image/png', 'image/gif' or 'image/webp'`;
      }
    }
    if (last && message.role === 'assistant') {
      const final = blocks.at(-1);
      if (final?.type === 'text' && /\s$/.test(final.text ?? '')) return 'final assistant content cannot end with trailing whitespace';
    }
    const calls = blocks.filter((block) => block.type === 'tool_use').map((block) => block.id);
    const next = messages[index + 1];
    const nextBlocks: Block[] = next && typeof next.content !== 'string' ? (next.content ?? []) : [];
    const leadingResults: string[] = [];
    for (const block of nextBlocks) {
      if (block.type !== 'tool_result') break;
      leadingResults.push(block.tool_use_id ?? '');
    }
    const unanswered = calls.filter((id) => !leadingResults.includes(id ?? ''));
    if (message.role === 'assistant' && next && unanswered.length > 0) {
      return `messages.${index + 1}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${unanswered.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`;
    }
    if (message.role === 'user') {
      const previousCalls = new Set(index > 0 && typeof messages[index - 1]?.content !== 'string' ? ((messages[index - 1]?.content ?? []) as Block[]).filter((block) => block.type === 'tool_use').map((block) => block.id) : []);
      const stray = blocks.filter((block) => block.type === 'tool_result' && !previousCalls.has(block.tool_use_id)).map((block) => block.tool_use_id);
      if (stray.length > 0) return `messages.${index}.content.0: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${stray.join(', ')}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`;
    }
  }
  return undefined;
}

function refusalOfThinking(body: Record<string, unknown>, model: string, maxTokens: number): string | undefined {
  const thinking = body.thinking as { type?: string; budget_tokens?: number } | undefined;
  if (thinking === undefined || thinking.type === 'disabled') return undefined;
  if (thinking.type === 'enabled') {
    if (thinkingModeFor(model).type === 'adaptive' && claudeSamplingRule(model) === 'neither') {
      return '"thinking.type.enabled" is not supported for this model. Use "thinking.type.adaptive" and "output_config.effort" to control thinking behavior.';
    }
    const budget = thinking.budget_tokens ?? 0;
    if (budget < 1024) return 'thinking.enabled.budget_tokens: Input should be greater than or equal to 1024';
    if (budget >= maxTokens) return '`max_tokens` must be greater than `thinking.budget_tokens`.';
  }
  if (body.temperature !== undefined && body.temperature !== 1) return '`temperature` may only be set to 1 when thinking is enabled.';
  if (typeof body.top_p === 'number' && body.top_p < 0.95) return '`top_p` must be greater than or equal to 0.95 when thinking is enabled.';
  if (body.top_k !== undefined) return '`top_k` must be unset when thinking is enabled.';
  const toolChoice = body.tool_choice as { type?: string } | undefined;
  if (toolChoice?.type === 'any' || toolChoice?.type === 'tool') return 'Thinking may not be enabled when `tool_choice` forces tool use.';
  if (thinking.type === 'enabled') return refusalOfUnsignedToolLoop((body.messages ?? []) as Message[]);
  return undefined;
}

/** With a thinking budget, the assistant turn of a tool loop in progress must start with its signed thinking. */
function refusalOfUnsignedToolLoop(messages: readonly Message[]): string | undefined {
  const last = messages.at(-1);
  const assistant = messages.at(-2);
  const resultsLast = Array.isArray(last?.content) && last.content.some((block) => block.type === 'tool_result');
  if (!resultsLast || assistant?.role !== 'assistant' || !Array.isArray(assistant.content)) return undefined;
  const first = assistant.content[0]?.type;
  if (first === 'thinking' || first === 'redacted_thinking') return undefined;
  return `messages.${messages.length - 2}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${first}\`. When \`thinking\` is enabled, a final \`assistant\` message must start with a thinking block (preceeding the lastmost set of \`tool_use\` and \`tool_result\` blocks).`;
}

function countCacheMarks(value: unknown): number {
  if (!Array.isArray(value)) return 0;
  return value.reduce((sum: number, item) => sum + (typeof item === 'object' && item !== null && 'cache_control' in item ? 1 : 0) + (typeof item === 'object' && item !== null && 'content' in item ? countCacheMarks((item as { content: unknown }).content) : 0), 0);
}

/** JSON Schema bounds Claude's structured outputs refuse (Anthropic's SDK moves them into the description). */
const UNSUPPORTED_SCHEMA_KEYWORDS = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'minLength', 'maxLength', 'maxItems', 'uniqueItems'];

/** What in a structured-output schema Claude refuses: an object left open, or a bound it cannot enforce. */
function unsupportedSchemaPart(schema: unknown): string | undefined {
  if (typeof schema !== 'object' || schema === null) return undefined;
  if (Array.isArray(schema)) return schema.map(unsupportedSchemaPart).find((found) => found !== undefined);
  const node = schema as Record<string, unknown>;
  if (node.type === 'object' && node.additionalProperties !== false) return 'For \'object\' type, \'additionalProperties\' must be explicitly set to false';
  const keyword = UNSUPPORTED_SCHEMA_KEYWORDS.find((name) => name in node);
  if (keyword) return `For '${String(node.type)}' type, property '${keyword}' is not supported`;
  return Object.values(node).map(unsupportedSchemaPart).find((found) => found !== undefined);
}
