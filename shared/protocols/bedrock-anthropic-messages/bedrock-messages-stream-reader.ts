import * as z from 'zod';
import type { CanonicalEvent } from '../../canonical/canonical-events.ts';
import type { CanonicalRequest } from '../../canonical/canonical-request.ts';
import { parseProviderPayload } from '../../canonical/read-payload.ts';
import type { TokenUsage } from '../../core/token-usage.ts';
import { createAnthropicStreamReader } from '../anthropic-messages/anthropic-stream-reader.ts';
import { toTokenUsage } from '../anthropic-messages/messages-usage.ts';
import type { StreamReader } from '../wire-protocol.ts';

const count = z.number().int().nonnegative().nullish().catch(undefined);

/** Bedrock's own count of an invocation, on the stream's last event (`message_stop`). */
const invocationMetricsSchema = z.looseObject({
  'amazon-bedrock-invocationMetrics': z.looseObject({
    inputTokenCount: count,
    outputTokenCount: count,
    cacheReadInputTokenCount: count,
    cacheWriteInputTokenCount: count,
  }),
});

/**
 * Claude's stream on Bedrock in canonical terms: Anthropic's events, read as Anthropic's reader reads
 * them, and then Bedrock's invocation metrics (what Bedrock bills), which become the final usage. A count
 * the metrics leave out (cache reads and writes, on older models; always the one-hour part of the writes)
 * keeps the value the events reported.
 */
export function createBedrockMessagesStreamReader(request?: CanonicalRequest): StreamReader {
  const anthropic = createAnthropicStreamReader(request);
  let reported: TokenUsage | undefined;
  return {
    push(data) {
      const events = anthropic.push(data);
      for (const event of events) {
        if (event.type === 'usage') reported = event.usage;
        else if (event.type === 'message-start' && event.usage) reported = event.usage;
      }
      const metrics = parseProviderPayload(invocationMetricsSchema, data)?.['amazon-bedrock-invocationMetrics'];
      if (!metrics || (metrics.inputTokenCount == null && metrics.outputTokenCount == null)) return events;
      const billed: CanonicalEvent = { type: 'usage', usage: usageFromMetrics(metrics, reported) };
      return [...events, billed];
    },
    // Bedrock's chunks are Anthropic's events: a stream without its stop reason and message_stop was cut off.
    cutOff: () => anthropic.cutOff(),
  };
}

type InvocationMetrics = z.infer<typeof invocationMetricsSchema>['amazon-bedrock-invocationMetrics'];

function usageFromMetrics(metrics: InvocationMetrics, reported: TokenUsage | undefined): TokenUsage {
  const cacheRead = metrics.cacheReadInputTokenCount ?? reported?.cachedTokens ?? 0;
  const cacheWrite = metrics.cacheWriteInputTokenCount ?? reported?.cacheWriteTokens ?? 0;
  const usage = toTokenUsage({
    // Like Anthropic's input_tokens, the metrics' input count leaves out the cached prompt.
    inputTokens: metrics.inputTokenCount ?? Math.max(0, (reported?.promptTokens ?? 0) - cacheRead - cacheWrite),
    outputTokens: metrics.outputTokenCount ?? reported?.completionTokens ?? 0,
    cacheReadInputTokens: cacheRead,
    cacheCreationInputTokens: cacheWrite,
    // The metrics do not split the writes by lifetime: the events' split says which were for an hour.
    ...(reported?.cacheWrite1hTokens ? { cacheCreation1hInputTokens: reported.cacheWrite1hTokens } : {}),
  });
  return { ...usage, reasoningTokens: reported?.reasoningTokens ?? 0 };
}
