import * as z from 'zod';
import { compactToolDescription, type TextCompaction } from './editor-prompt-compression.ts';

/** A tool as the editor declares it: flat (Responses) or nested (chat), a function or a custom tool. */
export const editorToolSchema = z.looseObject({
  type: z.string().nullish(),
  name: z.string().nullish(),
  description: z.string().nullish(),
  parameters: z.record(z.string(), z.unknown()).nullish(),
  strict: z.boolean().nullish(),
  format: z.record(z.string(), z.unknown()).nullish(),
  function: z
    .looseObject({ name: z.string(), description: z.string().nullish(), parameters: z.record(z.string(), z.unknown()).nullish(), strict: z.boolean().nullish() })
    .nullish(),
  custom: z.looseObject({ name: z.string(), description: z.string().nullish(), format: z.record(z.string(), z.unknown()).nullish() }).nullish(),
});
export type EditorTool = z.infer<typeof editorToolSchema>;

export const editorToolChoiceSchema = z.union([
  z.string(),
  z.looseObject({ type: z.string(), name: z.string().nullish(), function: z.looseObject({ name: z.string() }).nullish(), custom: z.looseObject({ name: z.string() }).nullish() }),
]);
export type EditorToolChoice = z.infer<typeof editorToolChoiceSchema>;

/** The names of the custom tools (free text, e.g. ApplyPatch with its grammar), flat or nested. */
export function customToolNames(tools: readonly EditorTool[]): Set<string> {
  return new Set(tools.flatMap((tool) => (tool.custom?.name ? [tool.custom.name] : tool.type === 'custom' && tool.name ? [tool.name] : [])));
}

/**
 * Tools as the Responses API takes them: nested chat tools become flat; a function tool without `strict`
 * gets `strict: false` (the Responses API would otherwise make its schema strict and the model fill every
 * optional argument); custom tools keep their format (ApplyPatch's grammar). Legacy `mcp_*` tools get
 * their descriptions shortened by prompt compression.
 */
export function flattenTools(tools: readonly EditorTool[], compaction: TextCompaction[]): Array<Record<string, unknown>> {
  return tools.map((tool) => {
    if (tool.function) {
      const { name, description, parameters, strict } = tool.function;
      return {
        type: 'function',
        name,
        ...(description ? { description: compactToolDescription(name, description, compaction) } : {}),
        parameters: parameters ?? { type: 'object', properties: {} },
        strict: strict ?? false,
      };
    }
    if (tool.custom) {
      const { name, description, format } = tool.custom;
      return { type: 'custom', name, ...(description ? { description } : {}), ...(format ? { format } : {}) };
    }
    const flat: Record<string, unknown> = { ...tool };
    if (tool.type === 'function') flat.strict = tool.strict ?? false;
    if (tool.name && tool.description) flat.description = compactToolDescription(tool.name, tool.description, compaction);
    return flat;
  });
}

/** A tool choice as the Responses API takes it: `{type, name}` for one tool (a custom one by its own type). */
export function flattenToolChoice(choice: EditorToolChoice, customTools: ReadonlySet<string>): EditorToolChoice {
  if (typeof choice === 'string') return choice;
  const name = choice.name ?? choice.function?.name ?? choice.custom?.name;
  if ((choice.type !== 'function' && choice.type !== 'custom') || !name) return choice;
  return { type: customTools.has(name) ? 'custom' : 'function', name };
}
