import { asJsonObject } from '../../core/json-object.ts';
import { jsonExample } from './mock-json-example.ts';
import type { MockTool } from './mock-request.ts';

/** Arguments longer than this are not looked for: the mock tries every span, which is quadratic. */
const MAX_ARGUMENTS_TEXT = 4_000;

/** The first `{…}` after `from` in the text that parses as a JSON object, if any. */
function jsonObjectAfter(fullText: string, from: number): Record<string, unknown> | undefined {
  const text = fullText.slice(from, from + MAX_ARGUMENTS_TEXT);
  for (let start = text.indexOf('{'); start !== -1; start = text.indexOf('{', start + 1)) {
    for (let end = text.lastIndexOf('}'); end > start; end = text.lastIndexOf('}', end - 1)) {
      try {
        const value: unknown = JSON.parse(text.slice(start, end + 1));
        if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
      } catch {
        // Not this span: try a shorter one.
      }
    }
  }
  return undefined;
}

/**
 * The arguments of the mock's call to `tool`: the JSON object written after the tool's name in the
 * user's message (`call get_weather {"city": "Paris"}`), else each required parameter with an example of
 * its schema (mock-json-example.ts), as a JSON string like OpenAI's `function.arguments`.
 */
export function mockToolArguments(tool: MockTool, userText: string): string {
  const mention = userText.indexOf(tool.name);
  const given = jsonObjectAfter(userText, mention === -1 ? 0 : mention + tool.name.length);
  if (given) return JSON.stringify(given);
  const example = jsonExample({ ...asJsonObject(tool.parameters), type: 'object' });
  return JSON.stringify(example);
}
