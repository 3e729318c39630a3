import { describe, expect, it } from 'vitest';
import {
  mergeAnthropicUsageCounts,
  readAnthropicUsage,
  readAnthropicUsageCounts,
  renderAnthropicUsage,
  toTokenUsage,
} from '../../../shared/protocols/anthropic-messages/messages-usage.ts';
import { readFixture } from '../../support/fixtures.ts';

function fixtureUsage(name: string): unknown {
  return (JSON.parse(readFixture(`anthropic/${name}`)) as { usage: unknown }).usage;
}

describe('readAnthropicUsage', () => {
  it('counts cache reads and cache writes inside the prompt tokens of a recorded prompt-cache response', () => {
    // input_tokens 3 excludes the cache: 418 tokens written to it, 1111 read from it.
    expect(readAnthropicUsage(fixtureUsage('messages-nonstream-cache-usage.json'))).toEqual({
      promptTokens: 3 + 418 + 1_111,
      completionTokens: 33,
      cachedTokens: 1_111,
      cacheWriteTokens: 418,
      reasoningTokens: 0,
      estimated: false,
    });
  });

  it('reads a recorded response without cache hits', () => {
    expect(readAnthropicUsage(fixtureUsage('messages-nonstream-text.json'))).toEqual({
      promptTokens: 12,
      completionTokens: 29,
      cachedTokens: 0,
      cacheWriteTokens: 0,
      reasoningTokens: 0,
      estimated: false,
    });
  });

  it('bills the searches its web search tool ran (server_tool_use), and gives them back in a usage it renders', () => {
    const usage = readAnthropicUsage({ input_tokens: 2_000, output_tokens: 300, server_tool_use: { web_search_requests: 3 } });
    expect(usage).toMatchObject({ promptTokens: 2_000, completionTokens: 300, units: { webSearches: 3 } });
    expect(renderAnthropicUsage(usage ?? ({} as never))).toMatchObject({ server_tool_use: { web_search_requests: 3 } });
    expect(readAnthropicUsage({ input_tokens: 5, output_tokens: 1, server_tool_use: { web_search_requests: 0 } })).not.toHaveProperty('units');
  });

  it('reads which cache writes were for an hour from cache_creation', () => {
    const usage = { input_tokens: 5, cache_creation_input_tokens: 3_000, cache_read_input_tokens: 0, cache_creation: { ephemeral_5m_input_tokens: 1_000, ephemeral_1h_input_tokens: 2_000 }, output_tokens: 1 };
    expect(readAnthropicUsage(usage)).toMatchObject({ promptTokens: 3_005, cacheWriteTokens: 3_000, cacheWrite1hTokens: 2_000 });
  });

  it('takes the split for the total when the total is missing, and never more one-hour writes than the total', () => {
    expect(readAnthropicUsage({ input_tokens: 1, cache_creation: { ephemeral_5m_input_tokens: 3, ephemeral_1h_input_tokens: 4 } })).toMatchObject({ promptTokens: 8, cacheWriteTokens: 7, cacheWrite1hTokens: 4 });
    expect(readAnthropicUsage({ input_tokens: 1, cache_creation_input_tokens: 2, cache_creation: { ephemeral_1h_input_tokens: 4 } })).toMatchObject({ cacheWriteTokens: 2, cacheWrite1hTokens: 2 });
  });

  it('drops an odd cache_creation without losing the total', () => {
    expect(readAnthropicUsage({ input_tokens: 1, cache_creation_input_tokens: 2, cache_creation: 'n/a' })).toMatchObject({ cacheWriteTokens: 2 });
    expect(readAnthropicUsage({ input_tokens: 1, cache_creation_input_tokens: 2, cache_creation: 'n/a' })?.cacheWrite1hTokens).toBeUndefined();
  });

  it('counts missing cache fields as zero (Anthropic-compatible providers omit them)', () => {
    expect(readAnthropicUsage({ input_tokens: 7, output_tokens: 2 })).toMatchObject({ promptTokens: 7, cachedTokens: 0, cacheWriteTokens: 0 });
  });

  it('reads thinking tokens from output_tokens_details as reasoning tokens', () => {
    expect(readAnthropicUsage({ input_tokens: 1, output_tokens: 92, output_tokens_details: { thinking_tokens: 53 } })?.reasoningTokens).toBe(53);
  });

  it('drops an odd detail count without losing the main counts', () => {
    expect(readAnthropicUsage({ input_tokens: 5, output_tokens: 1, cache_read_input_tokens: 'n/a' })).toMatchObject({ promptTokens: 5, cachedTokens: 0 });
  });

  it.each([null, undefined, 'usage', { input_tokens: -1, output_tokens: 1 }, { input_tokens: 1.5 }, {}, { input_tokens: null, output_tokens: null }])(
    'finds no usage in %j',
    (usage) => {
      expect(readAnthropicUsage(usage)).toBeUndefined();
    },
  );
});

describe('mergeAnthropicUsageCounts', () => {
  it('lets later counts win field by field and keeps the fields they do not carry', () => {
    const start = readAnthropicUsageCounts({ input_tokens: 2, cache_creation_input_tokens: 3_068, cache_read_input_tokens: 0, output_tokens: 69 });
    const delta = readAnthropicUsageCounts({ output_tokens: 198, cache_read_input_tokens: null });
    expect(mergeAnthropicUsageCounts(start ?? {}, delta ?? {})).toEqual({
      inputTokens: 2,
      cacheCreationInputTokens: 3_068,
      cacheReadInputTokens: 0,
      outputTokens: 198,
    });
  });
});

describe('renderAnthropicUsage', () => {
  it("gives back Anthropic's fields, input_tokens without the cached tokens", () => {
    const usage = toTokenUsage({ inputTokens: 3, cacheCreationInputTokens: 418, cacheReadInputTokens: 1_111, outputTokens: 33 });
    expect(renderAnthropicUsage(usage)).toEqual({ input_tokens: 3, cache_creation_input_tokens: 418, cache_read_input_tokens: 1_111, output_tokens: 33 });
  });

  it('gives the split by lifetime back when part of the writes was for an hour', () => {
    const usage = toTokenUsage({ inputTokens: 5, cacheCreationInputTokens: 3_000, cacheCreation1hInputTokens: 2_000, outputTokens: 20 });
    expect(renderAnthropicUsage(usage)).toEqual({
      input_tokens: 5,
      cache_creation_input_tokens: 3_000,
      cache_read_input_tokens: 0,
      cache_creation: { ephemeral_5m_input_tokens: 1_000, ephemeral_1h_input_tokens: 2_000 },
      output_tokens: 20,
    });
  });

  it('renders an OpenAI-style usage (no cache writes) with its cached tokens as cache reads', () => {
    const usage = { promptTokens: 10_122, completionTokens: 1, cachedTokens: 9_984, reasoningTokens: 0, estimated: false };
    expect(renderAnthropicUsage(usage)).toEqual({ input_tokens: 138, cache_creation_input_tokens: 0, cache_read_input_tokens: 9_984, output_tokens: 1 });
  });
});
