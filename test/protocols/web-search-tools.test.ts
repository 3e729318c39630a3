import { describe, expect, it } from 'vitest';
import { DEFAULT_WEB_SEARCHES_BOUND, webSearchesBound } from '../../shared/protocols/web-search-tools.ts';
import { readResponseObjectUsage } from '../../shared/protocols/openai-responses/responses-usage.ts';

describe('webSearchesBound', () => {
  it("takes Anthropic's max_uses of each web search tool", () => {
    expect(webSearchesBound([{ type: 'web_search_20250305', name: 'web_search', max_uses: 8 }, { type: 'custom', name: 'x' }])).toEqual({ webSearches: 8 });
  });

  it("takes OpenAI's max_tool_calls for its web search tool, else the default", () => {
    expect(webSearchesBound([{ type: 'web_search' }], 3)).toEqual({ webSearches: 3 });
    expect(webSearchesBound([{ type: 'web_search_preview' }])).toEqual({ webSearches: DEFAULT_WEB_SEARCHES_BOUND });
  });

  it('bounds nothing for a request without a web search tool', () => {
    expect(webSearchesBound([{ type: 'function', name: 'f' }])).toBeUndefined();
    expect(webSearchesBound(undefined)).toBeUndefined();
  });
});

describe('readResponseObjectUsage', () => {
  it('counts one billed search per web_search_call item beside the tokens', () => {
    const response = {
      usage: { input_tokens: 100, output_tokens: 20 },
      output: [{ type: 'web_search_call', id: 'ws_1', status: 'completed' }, { type: 'web_search_call', id: 'ws_2', status: 'completed' }, { type: 'message', content: [] }],
    };
    expect(readResponseObjectUsage(response)).toMatchObject({ promptTokens: 100, completionTokens: 20, units: { webSearches: 2 } });
    expect(readResponseObjectUsage({ usage: response.usage, output: [] })).not.toHaveProperty('units');
  });
});
