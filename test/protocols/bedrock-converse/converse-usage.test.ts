import { describe, expect, it } from 'vitest';
import { readConverseUsage } from '../../../shared/protocols/bedrock-converse/converse-usage.ts';
import { converseUsageSchema } from '../../../shared/protocols/bedrock-converse/converse-wire-types.ts';

const read = (usage: unknown) => readConverseUsage(converseUsageSchema.parse(usage));

describe('readConverseUsage', () => {
  it("reads the one-hour cache writes of Converse's cacheDetails (sorted 1h before 5m)", () => {
    const usage = { inputTokens: 5, outputTokens: 20, totalTokens: 3_025, cacheWriteInputTokens: 3_000, cacheDetails: [{ ttl: '1h', inputTokens: 2_000 }, { ttl: '5m', inputTokens: 1_000 }] };
    expect(read(usage)).toMatchObject({ promptTokens: 3_005, cacheWriteTokens: 3_000, cacheWrite1hTokens: 2_000 });
  });

  it('counts no one-hour writes when cacheDetails is absent, has none, or is not understood', () => {
    expect(read({ inputTokens: 5, outputTokens: 1, cacheWriteInputTokens: 30 })?.cacheWrite1hTokens).toBeUndefined();
    expect(read({ inputTokens: 5, outputTokens: 1, cacheWriteInputTokens: 30, cacheDetails: [{ ttl: '5m', inputTokens: 30 }] })?.cacheWrite1hTokens).toBeUndefined();
    expect(read({ inputTokens: 5, outputTokens: 1, cacheWriteInputTokens: 30, cacheDetails: 'n/a' })).toMatchObject({ cacheWriteTokens: 30 });
  });
});
