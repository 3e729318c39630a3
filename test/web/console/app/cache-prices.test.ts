import { describe, expect, it } from 'vitest';
import { describeCachePrices, describeLongContextPrices } from '../../../../web/console/app/cache-prices.ts';

const claudeLike = { input_price_micros_per_1k: 3000, cached_input_price_micros_per_1k: 300, cache_write_input_price_micros_per_1k: 3750, cache_write_1h_input_price_micros_per_1k: 6000 };

describe('describeCachePrices', () => {
  it('shows the prices the rate card sets, per million tokens', () => {
    expect(describeCachePrices(claudeLike)).toEqual({ cacheRead: { price: '$0.3' }, cacheWrite: { price: '$3.75' }, cacheWrite1h: { price: '$6' } });
  });

  it('shows what the gateway bills for a price not set: the input price, and twice it for one-hour writes', () => {
    const inputOnly = { input_price_micros_per_1k: 250, cached_input_price_micros_per_1k: null, cache_write_input_price_micros_per_1k: null, cache_write_1h_input_price_micros_per_1k: null };
    expect(describeCachePrices(inputOnly)).toEqual({
      cacheRead: { price: '$0.25', defaultRule: 'default: the input price' },
      cacheWrite: { price: '$0.25', defaultRule: 'default: the input price' },
      cacheWrite1h: { price: '$0.5', defaultRule: 'default: 2× the input price' },
    });
  });

  it('shows a price set to 0 as free, not as the default', () => {
    expect(describeCachePrices({ ...claudeLike, cached_input_price_micros_per_1k: 0 }).cacheRead).toEqual({ price: '$0' });
  });
});

describe('describeLongContextPrices', () => {
  it('shows the input and output prices billed above the tier\'s prompt size, the standard price where the tier sets none', () => {
    const haiku = { input_price_micros_per_1k: 100, output_price_micros_per_1k: 500, long_context_above_tokens: 100_000, long_context_input_price_micros_per_1k: 500, long_context_output_price_micros_per_1k: null };
    expect(describeLongContextPrices(haiku)).toEqual({ input: '$0.5 above 100K tokens', output: '$0.5 above 100K tokens' });
    expect(describeLongContextPrices({ ...haiku, long_context_output_price_micros_per_1k: 2_500 })?.output).toBe('$2.5 above 100K tokens');
  });

  it('writes a size that is not whole thousands in full', () => {
    expect(describeLongContextPrices({ input_price_micros_per_1k: 1, output_price_micros_per_1k: 1, long_context_above_tokens: 131_072 })?.input).toBe('$0.001 above 131,072 tokens');
  });

  it('shows nothing for a model without a tier', () => {
    expect(describeLongContextPrices({ input_price_micros_per_1k: 100, output_price_micros_per_1k: 500 })).toBeUndefined();
  });
});
