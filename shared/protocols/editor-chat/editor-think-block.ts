/**
 * The editor client renders no reasoning field of its own, so the bridge shows reasoning summaries as
 * text inside `<think>` tags before the answer (as the relays its users run do). The editor then replays
 * that text in the assistant turns it sends back; the profile takes it out again, so that it neither
 * costs tokens nor reads to the model as something it said.
 */
export const THINK_OPEN = '<think>\n';
export const THINK_CLOSE = '\n</think>\n\n';

/** A leading think block, however the editor trimmed its whitespace. */
const LEADING_THINK_BLOCK = /^\s*<think>[\s\S]*?<\/think>\s*/;

/** The text without its leading think block, and the block taken out ('' when there was none). */
export function withoutThinkBlock(text: string): { text: string; removed: string } {
  const found = LEADING_THINK_BLOCK.exec(text);
  if (!found) return { text, removed: '' };
  return { text: text.slice(found[0].length), removed: found[0] };
}
