import { describe, expect, it } from 'vitest';
import { imagesApi } from '../../shared/protocols/openai-images/images-api.ts';
import { readImagesUsage } from '../../shared/protocols/openai-images/images-usage.ts';
import { readFixture } from '../support/fixtures.ts';

// The usage object gpt-image models document (input text and image tokens, output image tokens).
const GPT_IMAGE_USAGE = { total_tokens: 1100, input_tokens: 100, input_tokens_details: { image_tokens: 50, text_tokens: 50 }, output_tokens: 1000 };

describe('the images API', () => {
  it('prices a gpt-image answer by its tokens, not per image', () => {
    const answer = imagesApi('generations').readResponse({ created: 1, data: [{ b64_json: 'x' }], usage: GPT_IMAGE_USAGE });
    expect(answer.usage).toEqual({ promptTokens: 100, completionTokens: 1000, cachedTokens: 0, reasoningTokens: 0, estimated: false });
    expect(answer.units).toBeUndefined();
  });

  it('prices an answer without tokens per image made', () => {
    const answer = imagesApi('generations').readResponse(JSON.parse(readFixture('other/openai-images-generations-b64.json')) as Record<string, unknown>);
    expect(answer.usage).toBeUndefined();
    expect(answer.units).toEqual({ images: 2 });
  });

  it('sums the usage of each completed image of a stream, ignoring partial images', () => {
    const reader = imagesApi('generations').createStreamReader?.();
    expect(reader?.push({ type: 'image_generation.partial_image', b64_json: 'x', partial_image_index: 0 })).toEqual([]);
    expect(reader?.push({ type: 'image_generation.completed', b64_json: 'y', usage: GPT_IMAGE_USAGE })).toEqual([
      { type: 'usage', usage: { promptTokens: 100, completionTokens: 1000, cachedTokens: 0, reasoningTokens: 0, estimated: false } },
    ]);
  });

  it('reads no usage from an object that has none', () => {
    expect(readImagesUsage(undefined)).toBeUndefined();
    expect(readImagesUsage({ unrelated: 1 })).toBeUndefined();
  });
});
