import { describe, expect, it } from 'vitest';
import { responsesCompactApi } from '../../../shared/protocols/openai-responses/responses-compact-api.ts';

describe('responsesCompactApi', () => {
  it('sends the body as a response’s to /responses/compact: the provider’s model id, no routing fields, no reasoning carried from Claude', () => {
    const carried = { type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'gateway-anthropic-signature:EoQD' };
    const body = { model: 'openai/gpt-5.5', models: ['x'], route: 'fallback', input: [{ role: 'user', content: 'Hi' }, carried], prompt_cache_key: 'k' };
    const request = responsesCompactApi.request(body, 'gpt-5.5', {});
    expect(request.path).toBe('/responses/compact');
    expect(JSON.parse(String(request.body))).toEqual({ model: 'gpt-5.5', input: [{ role: 'user', content: 'Hi' }], prompt_cache_key: 'k' });
  });

  it('reads the usage billed for the compaction, reasoning and cached tokens included', () => {
    const usage = { input_tokens: 1200, input_tokens_details: { cached_tokens: 200 }, output_tokens: 300, output_tokens_details: { reasoning_tokens: 100 }, total_tokens: 1500 };
    expect(responsesCompactApi.readResponse({ id: 'resp_1', object: 'response.compaction', output: [], usage })).toMatchObject({
      id: 'resp_1',
      usage: { promptTokens: 1200, cachedTokens: 200, completionTokens: 300, reasoningTokens: 100, estimated: false },
    });
  });
});
