import * as z from 'zod';

/** What the offline mock reads of an OpenAI chat request; anything else in it is ignored. */
export const mockRequestSchema = z.looseObject({
  model: z.string(),
  messages: z.array(z.looseObject({ role: z.string(), content: z.unknown() })),
  stream: z.boolean().nullish(),
  stream_options: z.looseObject({ include_usage: z.boolean().nullish() }).nullish(),
  tools: z
    .array(
      z.looseObject({
        type: z.string(),
        function: z.looseObject({ name: z.string(), parameters: z.unknown().optional() }).optional(),
      }),
    )
    .nullish(),
  tool_choice: z
    .union([z.string(), z.looseObject({ type: z.string(), function: z.looseObject({ name: z.string() }).optional() })])
    .nullish(),
  /** Structured outputs: the mock answers a `json_schema` format with JSON its schema accepts. */
  response_format: z.looseObject({ type: z.string(), json_schema: z.looseObject({ schema: z.unknown().optional() }).nullish() }).nullish(),
  /** Choices asked for: the mock gives each the same answer. */
  n: z.number().int().positive().nullish(),
});
export type MockRequest = z.infer<typeof mockRequestSchema>;
export type MockMessage = MockRequest['messages'][number];

/** A function tool of the request, by name, with its JSON Schema parameters. */
export interface MockTool {
  name: string;
  parameters: unknown;
}

export function functionTools(request: MockRequest): MockTool[] {
  return (request.tools ?? []).flatMap((tool) =>
    tool.type === 'function' && tool.function ? [{ name: tool.function.name, parameters: tool.function.parameters }] : [],
  );
}

/** The text of a message's content: a string, or its text parts joined by spaces. */
export function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content.map((part: unknown) => (typeof part === 'object' && part !== null && 'text' in part ? String(part.text) : '')).join(' ');
  }
  return '';
}
