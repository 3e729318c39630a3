import type { FinishReason } from '../../canonical/canonical-events.ts';

/**
 * A response's end in canonical words: `completed` (a tool-calls finish when it made calls, so chat and
 * messages clients run them), `incomplete` by its reason (the output cap, the content filter), `failed`.
 * `raw` is what the usage record keeps: the status, or an incomplete response's reason.
 */
export function mapResponsesStatus(status: string | null | undefined, incompleteReason: string | null | undefined, madeToolCalls: boolean): { reason: FinishReason; raw?: string } {
  switch (status) {
    case 'completed':
      return { reason: madeToolCalls ? 'tool-calls' : 'stop', raw: status };
    case 'incomplete':
      return { reason: incompleteReasonOf(incompleteReason), raw: incompleteReason ?? status };
    case 'failed':
      return { reason: 'error', raw: status };
    default:
      return { reason: 'other', ...(status ? { raw: status } : {}) };
  }
}

function incompleteReasonOf(reason: string | null | undefined): FinishReason {
  if (reason === 'max_output_tokens') return 'length';
  if (reason === 'content_filter') return 'content-filter';
  return 'other';
}

/** How a response ends for a canonical finish: its status and, when incomplete, the reason. */
export function toResponsesStatus(reason: FinishReason | undefined): { status: 'completed' | 'incomplete'; incompleteReason?: 'max_output_tokens' | 'content_filter' } {
  if (reason === 'length') return { status: 'incomplete', incompleteReason: 'max_output_tokens' };
  if (reason === 'content-filter') return { status: 'incomplete', incompleteReason: 'content_filter' };
  return { status: 'completed' };
}
