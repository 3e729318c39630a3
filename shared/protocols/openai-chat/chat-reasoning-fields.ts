/** Where providers put reasoning in a chat message or delta: OpenRouter's `reasoning` and `reasoning_details`, DeepSeek's and vLLM's `reasoning_content`. */
const REASONING_FIELDS = ['reasoning', 'reasoning_content', 'reasoning_details'] as const;

/**
 * A native chat completion (`part` message) or chunk (`part` delta) without its reasoning, for a client that
 * excluded it (reasoningExcluded); undefined when it carried none, so that the upstream's bytes pass as they
 * came. A chunk that held reasoning alone (no role, content, tool call, finish or usage) is `empty`: nothing
 * is left to show of it.
 */
export function withoutReasoningFields(payload: Record<string, unknown>, part: 'message' | 'delta'): { payload: Record<string, unknown>; empty: boolean } | undefined {
  const choices = payload.choices;
  if (!Array.isArray(choices) || !choices.some((choice) => carriesReasoning(choice, part))) return undefined;
  let empty = payload.usage === undefined || payload.usage === null;
  const shown = choices.map((choice) => {
    const record = choice as Record<string, unknown>;
    if (record.finish_reason !== null && record.finish_reason !== undefined) empty = false;
    const content = record[part];
    if (typeof content !== 'object' || content === null) return choice;
    const kept = Object.fromEntries(Object.entries(content).filter(([field]) => !(REASONING_FIELDS as readonly string[]).includes(field)));
    // A role (the first chunk's) is kept with its chunk: SDKs take the message's role from it.
    if (Object.values(kept).some((value) => value !== null && value !== undefined && value !== '')) empty = false;
    return { ...record, [part]: kept };
  });
  return { payload: { ...payload, choices: shown }, empty };
}

function carriesReasoning(choice: unknown, part: 'message' | 'delta'): boolean {
  const content = (choice as Record<string, unknown> | null)?.[part];
  // A null field holds nothing to hide (vLLM and DeepSeek send `reasoning_content: null` with every content delta).
  return typeof content === 'object' && content !== null && REASONING_FIELDS.some((field) => (content as Record<string, unknown>)[field] != null);
}
