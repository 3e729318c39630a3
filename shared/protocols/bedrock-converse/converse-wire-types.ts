import * as z from 'zod';

/**
 * What the gateway reads of Converse's answers and ConverseStream's events, leniently (`looseObject`,
 * `nullish`): a field Bedrock adds tomorrow passes unread, and a block of a kind not known yet is skipped.
 */
const count = z.number().int().nonnegative().nullish();
const detailCount = count.catch(undefined);

export const converseUsageSchema = z.looseObject({
  inputTokens: count,
  outputTokens: count,
  totalTokens: count,
  cacheReadInputTokens: detailCount,
  cacheWriteInputTokens: detailCount,
  /** The cache writes by lifetime (`ttl` "5m" or "1h"); a detail not understood is dropped, never the counts. */
  cacheDetails: z
    .array(z.looseObject({ ttl: z.string().nullish(), inputTokens: detailCount }))
    .nullish()
    .catch(undefined),
});

const toolUseSchema = z.looseObject({ toolUseId: z.string().nullish(), name: z.string().nullish(), input: z.unknown().optional() });

export const converseContentBlockSchema = z.looseObject({
  text: z.string().nullish(),
  toolUse: toolUseSchema.nullish(),
  reasoningContent: z
    .looseObject({ reasoningText: z.looseObject({ text: z.string().nullish(), signature: z.string().nullish() }).nullish() })
    .nullish(),
});
export type ConverseContentBlock = z.infer<typeof converseContentBlockSchema>;

export const converseResponseSchema = z.looseObject({
  output: z.looseObject({ message: z.looseObject({ content: z.array(converseContentBlockSchema).nullish() }).nullish() }).nullish(),
  stopReason: z.string().nullish(),
  usage: converseUsageSchema.nullish(),
});

const blockIndex = z.number().int().nonnegative().nullish();

/** One ConverseStream event: an object with one key, the event's type, as the AWS SDK shapes them. */
export const converseStreamEventSchema = z.looseObject({
  messageStart: z.looseObject({ role: z.string().nullish() }).nullish(),
  contentBlockStart: z
    .looseObject({ contentBlockIndex: blockIndex, start: z.looseObject({ toolUse: toolUseSchema.nullish() }).nullish() })
    .nullish(),
  contentBlockDelta: z
    .looseObject({
      contentBlockIndex: blockIndex,
      delta: z
        .looseObject({
          text: z.string().nullish(),
          toolUse: z.looseObject({ input: z.string().nullish() }).nullish(),
          reasoningContent: z.looseObject({ text: z.string().nullish(), signature: z.string().nullish() }).nullish(),
        })
        .nullish(),
    })
    .nullish(),
  contentBlockStop: z.looseObject({ contentBlockIndex: blockIndex }).nullish(),
  messageStop: z.looseObject({ stopReason: z.string().nullish() }).nullish(),
  metadata: z.looseObject({ usage: converseUsageSchema.nullish() }).nullish(),
});
export type ConverseStreamEvent = z.infer<typeof converseStreamEventSchema>;
