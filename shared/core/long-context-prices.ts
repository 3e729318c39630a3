import type { RateCardEntry } from './project-config.ts';
import { withoutUndefined } from './without-undefined.ts';

/**
 * Providers bill a long prompt at dearer prices, the whole request: Anthropic's Sonnet 4 and 4.5 with the 1M
 * window above 200K prompt tokens, Claude Haiku 5.5 above 100K, Gemini's Pro models above 200K, OpenAI's
 * newest above 272K. A rate card holds one such tier: the prompt size above which it applies
 * (`longContextAboveTokens`) and a price for each token price of the standard tier.
 *
 * A long-context price not set is derived from the standard one: input and output are the standard prices,
 * and the cache prices scale as the input price does (every provider above multiplies its cache reads and
 * writes by the input price's factor), rounded to the nearest micro-USD per 1,000 tokens.
 *
 * One table names each price everywhere it appears, as UNIT_PRICES does: the rate card field, the standard
 * price it stands for, the admin command field and CLI flag, the name admin answers print and the `pricing`
 * field of /v1/models.
 */
export const LONG_CONTEXT_PRICES = [
  {
    rateField: 'longContextInputPriceMicrosPer1k',
    standardField: 'inputPriceMicrosPer1k',
    commandField: 'longContextInputMicrosPer1k',
    flag: '--long-context-input-micros-per-1k',
    listName: 'long_context_input_price_micros_per_1k',
    pricingField: 'prompt_long_context',
    description: 'price of prompt tokens when the prompt is long (default: the input price)',
  },
  {
    rateField: 'longContextOutputPriceMicrosPer1k',
    standardField: 'outputPriceMicrosPer1k',
    commandField: 'longContextOutputMicrosPer1k',
    flag: '--long-context-output-micros-per-1k',
    listName: 'long_context_output_price_micros_per_1k',
    pricingField: 'completion_long_context',
    description: 'price of completion tokens when the prompt is long (default: the output price)',
  },
  {
    rateField: 'longContextCachedInputPriceMicrosPer1k',
    standardField: 'cachedInputPriceMicrosPer1k',
    commandField: 'longContextCachedInputMicrosPer1k',
    flag: '--long-context-cached-input-micros-per-1k',
    listName: 'long_context_cached_input_price_micros_per_1k',
    pricingField: 'input_cache_read_long_context',
    description: 'price of cache reads when the prompt is long (default: the cached price, scaled as the input price is)',
  },
  {
    rateField: 'longContextCacheWriteInputPriceMicrosPer1k',
    standardField: 'cacheWriteInputPriceMicrosPer1k',
    commandField: 'longContextCacheWriteInputMicrosPer1k',
    flag: '--long-context-cache-write-input-micros-per-1k',
    listName: 'long_context_cache_write_input_price_micros_per_1k',
    pricingField: 'input_cache_write_long_context',
    description: 'price of cache writes when the prompt is long (default: the cache-write price, scaled as the input price is)',
  },
  {
    rateField: 'longContextCacheWrite1hInputPriceMicrosPer1k',
    standardField: 'cacheWrite1hInputPriceMicrosPer1k',
    commandField: 'longContextCacheWrite1hInputMicrosPer1k',
    flag: '--long-context-cache-write-1h-input-micros-per-1k',
    listName: 'long_context_cache_write_1h_input_price_micros_per_1k',
    pricingField: 'input_cache_write_1h_long_context',
    description: 'price of one-hour cache writes when the prompt is long (default: the one-hour price, scaled as the input price is)',
  },
] as const;

export type LongContextPrice = (typeof LONG_CONTEXT_PRICES)[number];
export type LongContextPriceField = LongContextPrice['rateField'];
export type LongContextPriceCommandField = LongContextPrice['commandField'];

/** The tier's threshold under its names: prompts of more tokens than this are long. */
export const LONG_CONTEXT_THRESHOLD = {
  flag: '--long-context-above-tokens',
  listName: 'long_context_above_tokens',
  description: 'bill a request whose prompt has more tokens than N at the long-context prices, all of it ("none" removes the tier)',
} as const;

/** The rate a request is billed at: the long-context tier's when its prompt passes the threshold, else the rate as it is. */
export function rateForPrompt(rate: RateCardEntry, promptTokens: number): RateCardEntry {
  if (rate.longContextAboveTokens === undefined || promptTokens <= rate.longContextAboveTokens) return rate;
  return longContextRate(rate);
}

/** The long-context tier as a rate of its own (and without a tier): each price set, or derived from the standard one. */
export function longContextRate(rate: RateCardEntry): RateCardEntry {
  const standard = standardTier(rate);
  const input = rate.longContextInputPriceMicrosPer1k ?? standard.inputPriceMicrosPer1k;
  const scaled = (price: number | undefined) => (price === undefined ? undefined : scaleAsInput(price, standard.inputPriceMicrosPer1k, input));
  return withoutUndefined({
    ...standard,
    inputPriceMicrosPer1k: input,
    outputPriceMicrosPer1k: rate.longContextOutputPriceMicrosPer1k ?? standard.outputPriceMicrosPer1k,
    // A cache price the standard tier does not set is not set here either: its default (the input price, or
    // twice it for an hour) then follows the long-context input price, which is the same scaling.
    cachedInputPriceMicrosPer1k: rate.longContextCachedInputPriceMicrosPer1k ?? scaled(standard.cachedInputPriceMicrosPer1k),
    cacheWriteInputPriceMicrosPer1k: rate.longContextCacheWriteInputPriceMicrosPer1k ?? scaled(standard.cacheWriteInputPriceMicrosPer1k),
    cacheWrite1hInputPriceMicrosPer1k: rate.longContextCacheWrite1hInputPriceMicrosPer1k ?? scaled(standard.cacheWrite1hInputPriceMicrosPer1k),
  });
}

/** The rate without its long-context tier: its standard prices, whatever the prompt. */
export function standardTier(rate: RateCardEntry): RateCardEntry {
  const standard = { ...rate };
  delete standard.longContextAboveTokens;
  for (const price of LONG_CONTEXT_PRICES) delete standard[price.rateField];
  return standard;
}

/** `price × longInput / standardInput`, rounded half up; the price itself when the standard input is free (no factor to read). */
function scaleAsInput(price: number, standardInput: number, longInput: number): number {
  if (standardInput === 0) return price;
  const divisor = BigInt(standardInput);
  return Number((2n * BigInt(price) * BigInt(longInput) + divisor) / (2n * divisor));
}
