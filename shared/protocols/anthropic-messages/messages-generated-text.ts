/**
 * The text a model generated, as a tokenizer should count it when the upstream reported no usage:
 * text, thinking, tool names and tool input JSON. Signatures, citations and server tool results are
 * not generated tokens and are left out.
 */

/** The generated text a content block carries when it starts (or, in a complete response, in full). */
export function generatedBlockText(block: Record<string, unknown> | undefined): string {
  if (!block) return '';
  let text = '';
  if (typeof block.text === 'string') text += block.text;
  if (typeof block.thinking === 'string') text += block.thinking;
  if ((block.type === 'tool_use' || block.type === 'server_tool_use') && typeof block.name === 'string') text += block.name;
  return text;
}

/** The generated text of one `content_block_delta`. */
export function generatedDeltaText(delta: Record<string, unknown> | undefined): string {
  switch (delta?.type) {
    case 'text_delta':
      return typeof delta.text === 'string' ? delta.text : '';
    case 'input_json_delta':
      return typeof delta.partial_json === 'string' ? delta.partial_json : '';
    case 'thinking_delta':
      return typeof delta.thinking === 'string' ? delta.thinking : '';
    default:
      return '';
  }
}

/** The generated text of a complete response's content blocks (tool inputs as JSON). */
export function generatedContentText(content: unknown): string {
  if (!Array.isArray(content)) return '';
  let text = '';
  for (const block of content as unknown[]) {
    if (typeof block !== 'object' || block === null || Array.isArray(block)) continue;
    const record = block as Record<string, unknown>;
    text += generatedBlockText(record);
    if ((record.type === 'tool_use' || record.type === 'server_tool_use') && record.input !== undefined) text += JSON.stringify(record.input);
  }
  return text;
}
