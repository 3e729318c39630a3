import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../../shared/core/errors.ts';
import { readResponsesResponse } from '../../../shared/protocols/openai-responses/responses-response-reader.ts';
import { readFixture } from '../../support/fixtures.ts';

const recorded = (name: string) => readResponsesResponse(JSON.parse(readFixture(`openai-responses/${name}`)));

describe('readResponsesResponse over recorded answers', () => {
  it('reads a text answer with its id, model, text, status and usage (cached and reasoning tokens included)', () => {
    expect(recorded('responses-nonstream-text.json')).toMatchObject({
      id: expect.stringMatching(/^resp_/),
      model: 'gpt-5.5-2026-04-23',
      content: [{ type: 'text', text: 'pong' }],
      finish: 'stop',
      rawFinish: 'completed',
      usage: { promptTokens: expect.any(Number), completionTokens: expect.any(Number), cachedTokens: 0, estimated: false },
    });
  });

  it('reads the cache writes OpenRouter reports in input_tokens_details.cache_write_tokens, priced apart from cache reads', () => {
    const answer = JSON.parse(readFixture('openai-responses/responses-nonstream-text.json')) as Record<string, unknown>;
    const usage = { input_tokens: 16_000, input_tokens_details: { cached_tokens: 15_000, cache_write_tokens: 100 }, output_tokens: 300, output_tokens_details: { reasoning_tokens: 250 }, total_tokens: 16_300 };
    expect(readResponsesResponse({ ...answer, usage }).usage).toEqual({ promptTokens: 16_000, completionTokens: 300, cachedTokens: 15_000, cacheWriteTokens: 100, reasoningTokens: 250, estimated: false });
  });

  it('reads a function call by its call id (not its item id) and finishes with tool calls', () => {
    expect(recorded('responses-nonstream-function-call.json')).toMatchObject({
      content: [{ type: 'tool-call', id: 'call_fUL4HcLUJuOTMPvhZR4DQKJy', name: 'get_current_weather', arguments: '{"location":"Peak District"}' }],
      finish: 'tool-calls',
    });
  });

  it('reads a reasoning item as its summary text with its encrypted content, before the message', () => {
    const answer = recorded('responses-nonstream-reasoning-summary.json');
    expect(answer.content.map((part) => part.type)).toEqual(['reasoning', 'text']);
    expect(answer.content[0]).toMatchObject({ type: 'reasoning', text: expect.any(String), encrypted: expect.stringMatching(/^gAAAAA/) });
    expect(answer.usage).toEqual({ promptTokens: 34, completionTokens: 226, cachedTokens: 0, reasoningTokens: 59, estimated: false });
  });

  it('reads an incomplete response by its reason, and refuses a failed one as an upstream failure with its words', () => {
    expect(readResponsesResponse({ id: 'r', status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' }, output: [] })).toMatchObject({ finish: 'length', rawFinish: 'max_output_tokens' });
    expect(() => readResponsesResponse({ id: 'r', status: 'failed', error: { code: 'server_error', message: 'Boom' }, output: [] })).toThrow(GatewayError);
    expect(() => readResponsesResponse({ id: 'r', status: 'failed', error: { code: 'server_error', message: 'Boom' }, output: [] })).toThrow(/Boom/);
  });

  it('refuses a body that is not a response', () => {
    expect(() => readResponsesResponse({ choices: [] })).toThrow(/not a response/);
  });
});
