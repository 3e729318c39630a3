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
