import * as z from 'zod';
import type { MockTool } from './mock-request.ts';

const objectSchema = z.looseObject({
  properties: z.record(z.string(), z.looseObject({ type: z.unknown().optional(), enum: z.array(z.unknown()).optional() })).optional(),
  required: z.array(z.string()).optional(),
});

/** A value of the JSON Schema type, for a required parameter the message gave none for. */
function placeholder(property: { type?: unknown; enum?: unknown[] | undefined } | undefined): unknown {
  if (property?.enum && property.enum.length > 0) return property.enum[0];
  const type = Array.isArray(property?.type) ? property.type[0] : property?.type;
  switch (type) {
    case 'number':
    case 'integer':
      return 0;
    case 'boolean':
      return false;
    case 'array':
      return [];
    case 'object':
      return {};
    default:
      return 'example';
  }
}

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
 * user's message (`call get_weather {"city": "Paris"}`), else each required parameter with a placeholder
 * of its type (enum: its first value), as a JSON string like OpenAI's `function.arguments`.
 */
export function mockToolArguments(tool: MockTool, userText: string): string {
  const mention = userText.indexOf(tool.name);
  const given = jsonObjectAfter(userText, mention === -1 ? 0 : mention + tool.name.length);
  if (given) return JSON.stringify(given);
  const schema = objectSchema.safeParse(tool.parameters ?? {});
  const required = schema.success ? (schema.data.required ?? []) : [];
  const properties = schema.success ? (schema.data.properties ?? {}) : {};
  return JSON.stringify(Object.fromEntries(required.map((name) => [name, placeholder(properties[name])])));
}
