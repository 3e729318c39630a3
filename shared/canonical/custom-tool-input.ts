import { asJsonObject, parseJsonObject } from '../core/json-object.ts';
import type { CanonicalRequest, CanonicalTool } from './canonical-request.ts';
import { decodePartialJsonString } from './partial-json-string.ts';
import { parseToolArguments, stringifyToolInput } from './tool-arguments.ts';

/**
 * A custom tool (OpenAI's free-text tools, e.g. Codex's apply_patch) reaches an upstream that only knows
 * JSON tools (Anthropic) as a tool taking one string property, `input`: the model writes the free text
 * there, and the way back takes it out again, so the client sees its custom tool call as it declared it.
 */
export const CUSTOM_TOOL_INPUT_PROPERTY = 'input';

/** The JSON schema a custom tool takes as a JSON tool; a grammar format is spelled out for the model. */
export function customToolInputSchema(format: Record<string, unknown> | undefined): Record<string, unknown> {
  const grammar = format?.type === 'grammar' && typeof format.definition === 'string' ? format : undefined;
  const description = grammar
    ? `The tool's input as free text, following this ${typeof grammar.syntax === 'string' ? grammar.syntax : ''} grammar:\n${String(grammar.definition)}`
    : "The tool's input as free text.";
  return {
    type: 'object',
    properties: { [CUSTOM_TOOL_INPUT_PROPERTY]: { type: 'string', description } },
    required: [CUSTOM_TOOL_INPUT_PROPERTY],
    additionalProperties: false,
  };
}

/** A custom tool call's free text as the JSON object a JSON tool takes. */
export function wrapCustomToolInput(text: string): Record<string, unknown> {
  return { [CUSTOM_TOOL_INPUT_PROPERTY]: text };
}

/**
 * The free text of a custom tool called as a JSON tool. JSON the output cap cut off (`{"input": "*** Begin
 * Pa`) gives the text received so far; JSON without the property stays as it came (the model wrote
 * something else, which the client had better see), except an empty object: no text.
 */
export function unwrapCustomToolInput(argumentsJson: string): string {
  const parsed = parseJsonObject(argumentsJson);
  if (!parsed) return cutOffCustomToolInput(argumentsJson) ?? argumentsJson;
  const input = parsed[CUSTOM_TOOL_INPUT_PROPERTY];
  if (typeof input === 'string') return input;
  return Object.keys(parsed).length === 0 ? '' : argumentsJson;
}

/** The same for a tool input already parsed (a complete answer's tool_use block). */
export function unwrapParsedCustomToolInput(input: unknown): string {
  const object = asJsonObject(input);
  const text = object?.[CUSTOM_TOOL_INPUT_PROPERTY];
  if (typeof text === 'string') return text;
  // Anthropic sends a parameter whole or not at all in a complete answer: the cap leaves `{}`.
  return object && Object.keys(object).length === 0 ? '' : JSON.stringify(input ?? {});
}

/** What opens the wrapper, token by token (JSON allows spaces between them). */
const OPENING_TOKENS = ['{', `"${CUSTOM_TOOL_INPUT_PROPERTY}"`, ':', '"'];

/**
 * The text in a wrapper cut off before its end: a wrapper cut within its opening (`{"inp`) has no text
 * yet, one cut within its string the text as far as it goes. Undefined for JSON of another shape.
 */
function cutOffCustomToolInput(json: string): string | undefined {
  let at = 0;
  for (const token of OPENING_TOKENS) {
    while (/\s/.test(json.charAt(at))) at += 1;
    const present = json.slice(at, at + token.length);
    if (!token.startsWith(present)) return undefined;
    if (present.length < token.length) return '';
    at += token.length;
  }
  return decodePartialJsonString(json, at);
}

/** The names of the request's custom tools (none when there is no translated request). */
export function customToolNames(request: Pick<CanonicalRequest, 'tools'> | undefined): ReadonlySet<string> {
  return new Set((request?.tools ?? []).filter((tool: CanonicalTool) => tool.custom).map((tool) => tool.name));
}

/*
 * The three crossings of a protocol that only knows JSON tools (Anthropic's Messages, Bedrock's Converse):
 * a tool's schema, a call's input on the way there, and a call's parsed input on the way back.
 */

/** A tool's input schema as a JSON tool: a custom tool's free text in one string property, else its parameters. */
export function jsonToolInputSchema(tool: CanonicalTool): Record<string, unknown> {
  return tool.custom ? customToolInputSchema(tool.custom.format) : { type: 'object', properties: {}, ...(tool.parameters ?? {}) };
}

/** A tool call's arguments as the JSON object a JSON tool takes. */
export function jsonToolCallInput(call: { arguments: string; custom?: boolean }): Record<string, unknown> {
  return call.custom ? wrapCustomToolInput(call.arguments) : parseToolArguments(call.arguments);
}

/** A JSON tool call's parsed input as the call's arguments: a custom tool's free text, else the JSON text. */
export function toolCallArgumentsOf(input: unknown, custom: boolean): string {
  return custom ? unwrapParsedCustomToolInput(input) : stringifyToolInput(input);
}
