import { parseJsonObject } from '../core/json-object.ts';

/**
 * The key under which tool arguments that are not a JSON object are kept when they must become an
 * Anthropic `input` (which has to be an object): the model still sees what it sent, and the request stays valid.
 */
export const RAW_ARGUMENTS_KEY = 'raw_arguments';

/**
 * A chat tool call's `arguments` string as an Anthropic tool_use `input`. Empty arguments (a tool without
 * parameters) are `{}`; arguments that are not a JSON object are wrapped as `{ raw_arguments: "<string>" }`.
 */
export function parseToolArguments(argumentsText: string | null | undefined): Record<string, unknown> {
  if (argumentsText === null || argumentsText === undefined || argumentsText.trim() === '') return {};
  // Models sometimes emit broken JSON: it is kept as text.
  return parseJsonObject(argumentsText) ?? { [RAW_ARGUMENTS_KEY]: argumentsText };
}

/** An Anthropic tool_use `input` as a chat tool call's `arguments` string (absent input is `{}`). */
export function stringifyToolInput(input: unknown): string {
  return JSON.stringify(input ?? {});
}
