import type { BilledUnits } from '../core/billed-units.ts';
import type { TokenUsage } from '../core/token-usage.ts';
import type { FinishReason } from './canonical-events.ts';

/** A complete (non-streamed) answer in protocol-neutral terms: what response readers produce and writers consume. */
export interface CanonicalResponse {
  /** The upstream's own id (possibly empty). */
  id: string;
  /** The upstream's model id (possibly empty). */
  model: string;
  content: CanonicalOutput[];
  finish: FinishReason;
  /** The upstream's own finish word, e.g. `end_turn` or `tool_calls`. */
  rawFinish?: string;
  /** A stop at one of the request's stop sequences: the one that matched, or null (as FinishEvent's). */
  stopSequence?: string | null;
  /** Undefined when the upstream reported none (the gateway then estimates). */
  usage?: TokenUsage;
  /** Units the answer is billed beyond tokens (images made), even when it reports no token usage. */
  units?: BilledUnits;
}

export type CanonicalOutput =
  | { type: 'text'; text: string }
  | { type: 'reasoning'; text: string; signature?: string; encrypted?: string }
  | { type: 'tool-call'; id: string; name: string; arguments: string; custom?: boolean };

/** The generated text of an answer, as a tokenizer should count it when the upstream reported no usage. */
export function generatedText(content: readonly CanonicalOutput[]): string {
  let text = '';
  for (const part of content) text += part.type === 'tool-call' ? part.name + part.arguments : part.text;
  return text;
}
