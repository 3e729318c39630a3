import type { TokenUsage } from '../../core/price-usage.ts';
import { readOpenAiUsage, renderOpenAiUsage, stringifyWithUsageCost } from './chat-usage.ts';

export interface CompletionMeterOptions {
  injectCost: boolean;
  priceUsd: (usage: TokenUsage) => string;
  /** Counts tokens when the upstream reported no usage. */
  estimate: (completionText: string) => Promise<TokenUsage>;
}

export interface MeteredCompletion {
  body: string;
  usage: TokenUsage;
  finishReason?: string;
  upstreamId?: string;
}

interface Completion {
  id?: unknown;
  usage?: unknown;
  choices?: Array<{ finish_reason?: unknown; message?: { content?: unknown; tool_calls?: unknown } }>;
}

/**
 * Meters a non-streaming chat completion. The body passes unchanged unless usage-cost injection is on,
 * in which case `usage` gains `cost` (and is added, estimated, if the upstream sent none).
 */
export async function meterChatCompletion(text: string, options: CompletionMeterOptions): Promise<MeteredCompletion> {
  let completion: Completion & Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object');
    completion = parsed as Completion & Record<string, unknown>;
  } catch {
    return { body: text, usage: await options.estimate(text) };
  }
  const choice = Array.isArray(completion.choices) ? completion.choices[0] : undefined;
  const finishReason = typeof choice?.finish_reason === 'string' ? choice.finish_reason : undefined;
  const upstreamId = typeof completion.id === 'string' ? completion.id : undefined;
  const reported = readOpenAiUsage(completion.usage);
  const usage = reported ?? (await options.estimate(completionText(completion)));
  const described = { usage, ...(finishReason ? { finishReason } : {}), ...(upstreamId ? { upstreamId } : {}) };
  if (!options.injectCost) return { body: text, ...described };

  const shownUsage = reported ? (completion.usage as Record<string, unknown>) : renderOpenAiUsage(usage);
  return { body: stringifyWithUsageCost(completion, shownUsage, options.priceUsd(usage)), ...described };
}

function completionText(completion: Completion): string {
  let text = '';
  for (const choice of completion.choices ?? []) {
    if (typeof choice.message?.content === 'string') text += choice.message.content;
    if (choice.message?.tool_calls !== undefined) text += JSON.stringify(choice.message.tool_calls);
  }
  return text;
}
