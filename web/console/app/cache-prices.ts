import { ONE_HOUR_CACHE_WRITE_INPUT_MULTIPLE, oneHourCacheWritePrice } from '../../../shared/core/price-usage.ts';
import type { Project } from './api-types.ts';
import { formatPricePerMillion } from './format.ts';

type ModelPrices = Pick<
  Project['models'][number],
  'input_price_micros_per_1k' | 'cached_input_price_micros_per_1k' | 'cache_write_input_price_micros_per_1k' | 'cache_write_1h_input_price_micros_per_1k'
>;

/** A price per million tokens, and when the rate card sets none, the rule the gateway bills by instead. */
export interface CachePrice {
  price: string;
  defaultRule?: string;
}

/**
 * The prompt-cache prices of an allowlisted model as the models table shows them. The API gives null for a
 * price not set; the gateway then bills the price shown here (exactCost), so the table says which and why.
 */
export function describeCachePrices(model: ModelPrices): { cacheRead: CachePrice; cacheWrite: CachePrice; cacheWrite1h: CachePrice } {
  const input = model.input_price_micros_per_1k;
  const oneHourDefault = oneHourCacheWritePrice({ inputPriceMicrosPer1k: input });
  return {
    cacheRead: priceOrDefault(model.cached_input_price_micros_per_1k, input, 'the input price'),
    cacheWrite: priceOrDefault(model.cache_write_input_price_micros_per_1k, input, 'the input price'),
    cacheWrite1h: priceOrDefault(model.cache_write_1h_input_price_micros_per_1k, oneHourDefault, `${ONE_HOUR_CACHE_WRITE_INPUT_MULTIPLE}× the input price`),
  };
}

function priceOrDefault(price: number | null, defaultPrice: number, rule: string): CachePrice {
  return price === null ? { price: formatPricePerMillion(defaultPrice), defaultRule: `default: ${rule}` } : { price: formatPricePerMillion(price) };
}

type LongContextView = Pick<Project['models'][number], 'input_price_micros_per_1k' | 'output_price_micros_per_1k'> & {
  long_context_above_tokens?: number | null;
  long_context_input_price_micros_per_1k?: number | null;
  long_context_output_price_micros_per_1k?: number | null;
};

/**
 * A model's long-context tier as the models table shows it under the input and output prices: the price per
 * million tokens billed when the prompt passes the tier's size (a price not set is the standard one), or
 * undefined without a tier.
 */
export function describeLongContextPrices(model: LongContextView): { input: string; output: string } | undefined {
  const above = model.long_context_above_tokens;
  if (typeof above !== 'number') return undefined;
  const when = `above ${tokenCount(above)} tokens`;
  return {
    input: `${formatPricePerMillion(model.long_context_input_price_micros_per_1k ?? model.input_price_micros_per_1k)} ${when}`,
    output: `${formatPricePerMillion(model.long_context_output_price_micros_per_1k ?? model.output_price_micros_per_1k)} ${when}`,
  };
}

/** A token count as providers' price pages write it: 200K for 200,000; a count that is not whole thousands in full. */
function tokenCount(tokens: number): string {
  return tokens % 1000 === 0 ? `${(tokens / 1000).toLocaleString('en-US')}K` : tokens.toLocaleString('en-US');
}
