import { isOpenAiReasoningModel } from '../../shared/core/reasoning-models.ts';
import { readFixture } from './fixtures.ts';

function invalid(message: string, param: string | null, code: string) {
  return { error: { message, type: 'invalid_request_error', param, code } };
}

/** The chat completions fields OpenAI takes; others are refused ("Unrecognized request argument supplied"). */
const CHAT_FIELDS = new Set([
  'model', 'messages', 'max_tokens', 'max_completion_tokens', 'temperature', 'top_p', 'n', 'stream', 'stream_options', 'stop',
  'presence_penalty', 'frequency_penalty', 'logit_bias', 'logprobs', 'top_logprobs', 'user', 'safety_identifier', 'prompt_cache_key',
  'tools', 'tool_choice', 'parallel_tool_calls', 'functions', 'function_call', 'response_format', 'seed', 'service_tier', 'store',
  'metadata', 'reasoning_effort', 'verbosity', 'modalities', 'audio', 'prediction', 'web_search_options', 'prompt_cache_retention',
]);

/** The largest answer of the models the tests use, where OpenAI refuses a larger cap. */
const OUTPUT_LIMITS: Readonly<Record<string, number>> = { 'gpt-4o-mini': 16_384, 'gpt-4.1': 32_768 };

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** A deployment the tests name as an Azure admin would, serving a reasoning model its name does not tell. */
export const REASONING_DEPLOYMENT = 'prod-reasoner';

/**
 * Whether the model takes `reasoning_effort` (and refuses sampling other than the default): OpenAI's
 * reasoning models, the marked deployment, gpt-oss.
 */
const reasonsAsOpenAi = (model: string) => isOpenAiReasoningModel(model) || model === REASONING_DEPLOYMENT || /(^|\/)gpt-oss-/.test(model);

type ChatMessage = { role?: string; content?: unknown; tool_calls?: Array<{ id?: string }>; tool_call_id?: string };

/**
 * What OpenAI's chat completions answer with 400, as far as a translation can get it wrong: a field it
 * does not take; a cap above the model's largest answer; for a reasoning model `max_tokens` (its recorded
 * refusal), a `temperature` or `top_p` other than the default, and `stop`; `reasoning_effort` for every
 * other model; more than four stop sequences; a `user` over 64 characters (as other gateways report); a
 * tool name outside its pattern; tool calls without their `tool` messages after them, a `tool` message
 * without its call, a call id over 40 characters; an inline file without a filename; a schema format
 * without its name, or strict with a property not required. Returns undefined for a request it takes.
 */
export function refusalOfOpenAi(body: Record<string, unknown>): unknown {
  for (const field of Object.keys(body)) {
    if (!CHAT_FIELDS.has(field)) return invalid(`Unrecognized request argument supplied: ${field}`, null, 'unknown_parameter');
  }
  const model = String(body.model ?? '');
  const cap = Number(body.max_completion_tokens ?? body.max_tokens);
  const limit = OUTPUT_LIMITS[model];
  if (limit !== undefined && cap > limit) {
    return invalid(`max_tokens is too large: ${cap}. This model supports at most ${limit} completion tokens, whereas you provided ${cap}.`, 'max_tokens', 'invalid_value');
  }
  const reasons = reasonsAsOpenAi(model);
  if (reasons) {
    // OpenAI's own reasoning models refuse max_tokens; gpt-oss on another server takes it.
    if (body.max_tokens !== undefined && !/gpt-oss-/.test(model)) return JSON.parse(readFixture('openai-chat/chat-error-400-unsupported-parameter.json'));
    for (const parameter of ['temperature', 'top_p'] as const) {
      if (body[parameter] !== undefined && body[parameter] !== 1) {
        return invalid(`Unsupported value: '${parameter}' does not support ${String(body[parameter])} with this model. Only the default (1) value is supported.`, parameter, 'unsupported_value');
      }
    }
    if (body.stop !== undefined) return invalid("Unsupported parameter: 'stop' is not supported with this model.", 'stop', 'unsupported_parameter');
  } else if (body.reasoning_effort !== undefined) {
    return invalid("Unsupported parameter: 'reasoning_effort' is not supported with this model.", 'reasoning_effort', 'unsupported_parameter');
  }
  if (Array.isArray(body.stop) && body.stop.length > 4) {
    return invalid(`Invalid 'stop': array too long. Expected an array with maximum length 4, but got an array with length ${body.stop.length} instead.`, 'stop', 'array_above_max_length');
  }
  if (typeof body.user === 'string' && body.user.length > 64) {
    return invalid(`Invalid 'user': string too long. Expected a string with maximum length 64, but got a string with length ${body.user.length} instead.`, 'user', 'string_above_max_length');
  }
  for (const [index, tool] of ((body.tools ?? []) as Array<{ function?: { name?: string }; name?: string }>).entries()) {
    const name = tool.function?.name ?? tool.name ?? '';
    if (!TOOL_NAME.test(name)) return invalid(`Invalid 'tools[${index}].function.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.`, `tools[${index}].function.name`, 'invalid_value');
  }
  const format = body.response_format as { type?: string; json_schema?: { name?: string; strict?: boolean; schema?: { required?: string[]; properties?: Record<string, unknown> } } } | undefined;
  if (format?.type === 'json_schema') {
    if (!/^[a-zA-Z0-9_-]{1,64}$/.test(format.json_schema?.name ?? '')) return invalid("Missing required parameter: 'response_format.json_schema.name'.", 'response_format.json_schema.name', 'missing_required_parameter');
    const { required = [], properties = {} } = format.json_schema?.schema ?? {};
    const optional = Object.keys(properties).find((name) => !required.includes(name));
    if (format.json_schema?.strict === true && optional) {
      return invalid(`Invalid schema for response_format '${String(format.json_schema.name)}': In context=(), 'required' is required to be supplied and to be an array including every key in properties. Missing '${optional}'.`, 'response_format', 'invalid_json_schema');
    }
  }
  const messages = (body.messages ?? []) as ChatMessage[];
  for (const [index, message] of messages.entries()) {
    const parts = Array.isArray(message.content) ? (message.content as Array<{ type?: string; file?: { file_data?: string; filename?: string } }>) : [];
    for (const [partIndex, part] of parts.entries()) {
      // OpenAI names the wrong field, as users report: an inline file without its filename is what it means.
      if (part.type === 'file' && part.file?.file_data !== undefined && !part.file.filename) {
        return invalid(`Missing required parameter: 'messages[${index}].content[${partIndex}].file.file_id'.`, `messages[${index}].content[${partIndex}].file.file_id`, 'missing_required_parameter');
      }
    }
  }
  return refusalOfToolTurns(messages);
}

function refusalOfToolTurns(messages: readonly ChatMessage[]): unknown {
  let awaited = new Set<string>();
  for (const [index, message] of messages.entries()) {
    if (message.role === 'tool') {
      if (!awaited.delete(message.tool_call_id ?? '')) {
        return invalid("Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.", `messages.[${index}].role`, 'invalid_value');
      }
      continue;
    }
    if (awaited.size > 0) {
      return invalid(`An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${[...awaited].join(', ')}`, 'messages', 'invalid_value');
    }
    for (const call of message.tool_calls ?? []) {
      if ((call.id ?? '').length > 40) {
        return invalid(`Invalid 'messages[${index}].tool_calls[0].id': string too long. Expected a string with maximum length 40, but got a string with length ${(call.id ?? '').length} instead.`, `messages[${index}].tool_calls[0].id`, 'string_above_max_length');
      }
    }
    awaited = new Set((message.tool_calls ?? []).map((call) => call.id ?? ''));
  }
  return undefined;
}

/** The Responses API's request fields; others are refused ("Unknown parameter"). */
const RESPONSES_FIELDS = new Set([
  'model', 'input', 'instructions', 'tools', 'tool_choice', 'parallel_tool_calls', 'max_output_tokens', 'max_tool_calls', 'temperature',
  'top_p', 'top_logprobs', 'reasoning', 'text', 'store', 'stream', 'stream_options', 'metadata', 'include', 'previous_response_id',
  'conversation', 'prompt', 'prompt_cache_key', 'prompt_cache_retention', 'safety_identifier', 'user', 'service_tier', 'truncation',
  'background',
]);

type ResponsesItem = { type?: string; role?: string; call_id?: string; content?: Array<{ type?: string; file_data?: string; filename?: string }> };

/**
 * What OpenAI's Responses API answers with 400, as far as a translation can get it wrong: a field it does
 * not take; `max_output_tokens` under 16; for a reasoning model a `temperature` or `top_p` other than the
 * default; a tool name outside its pattern; a call's output with no call before it (`store: false` leaves
 * the server nothing to look up); an inline file without a filename; a schema format without its name.
 */
export function refusalOfOpenAiResponses(body: Record<string, unknown>): unknown {
  for (const field of Object.keys(body)) {
    if (!RESPONSES_FIELDS.has(field)) return invalid(`Unknown parameter: '${field}'.`, field, 'unknown_parameter');
  }
  const cap = body.max_output_tokens;
  if (typeof cap === 'number' && cap < 16) {
    return invalid(`Invalid 'max_output_tokens': integer below minimum value. Expected a value >= 16, but got ${cap} instead.`, 'max_output_tokens', 'integer_below_min_value');
  }
  const model = String(body.model ?? '');
  if (reasonsAsOpenAi(model)) {
    for (const parameter of ['temperature', 'top_p'] as const) {
      if (body[parameter] !== undefined && body[parameter] !== 1) return invalid(`Unsupported parameter: '${parameter}' is not supported with this model.`, parameter, 'unsupported_parameter');
    }
  }
  for (const [index, tool] of ((body.tools ?? []) as Array<{ type?: string; name?: string }>).entries()) {
    if ((tool.type === 'function' || tool.type === 'custom') && !TOOL_NAME.test(tool.name ?? '')) {
      return invalid(`Invalid 'tools[${index}].name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.`, `tools[${index}].name`, 'invalid_value');
    }
  }
  const format = (body.text as { format?: { type?: string; name?: string } } | undefined)?.format;
  if (format?.type === 'json_schema' && !format.name) return invalid("Missing required parameter: 'text.format.name'.", 'text.format.name', 'missing_required_parameter');
  const items = typeof body.input === 'string' ? [] : ((body.input ?? []) as ResponsesItem[]);
  const calls = new Set<string>();
  for (const [index, item] of items.entries()) {
    if (item.type === 'function_call' || item.type === 'custom_tool_call') calls.add(item.call_id ?? '');
    if ((item.type === 'function_call_output' || item.type === 'custom_tool_call_output') && !calls.has(item.call_id ?? '')) {
      return invalid(`No tool call found for function call output with call_id ${String(item.call_id)}.`, `input[${index}]`, 'invalid_value');
    }
    for (const [partIndex, part] of (item.content ?? []).entries()) {
      if (part.type === 'input_file' && part.file_data !== undefined && !part.filename) return invalid(`Missing required parameter: 'input[${index}].content[${partIndex}]'.`, `input[${index}].content[${partIndex}]`, 'missing_required_parameter');
    }
  }
  return undefined;
}
