import type { CliFlag } from './cli-command.ts';
import { MAX_PRICE_MICROS } from '../../../shared/core/money-limits.ts';
import { UNIT_PRICES } from '../../../shared/core/unit-prices.ts';
import { LONG_CONTEXT_PRICES, LONG_CONTEXT_THRESHOLD } from '../../../shared/core/long-context-prices.ts';
import { microsPer1k, positiveIntegerOrNone, wholeMicros } from './flag-values.ts';

/** The bound of every price flag, for the commands' help (money-limits.ts says why). */
export const PRICE_BOUND = `Each price is at most ${MAX_PRICE_MICROS} micro-USD (100 USD per 1,000 tokens or per unit), so that every request's cost stays exact.`;

/** The prices of `model allow` (the project's own) and `ratecard set` (the organisation's default). */
export function priceFlags(required: boolean): CliFlag[] {
  return [
    { name: '--input-micros-per-1k', value: 'N', description: 'price of prompt tokens, micro-USD per 1,000', field: 'inputMicrosPer1k', parse: microsPer1k, required },
    { name: '--output-micros-per-1k', value: 'N', description: 'price of completion tokens, micro-USD per 1,000', field: 'outputMicrosPer1k', parse: microsPer1k, required },
    {
      name: '--cached-input-micros-per-1k',
      value: 'N',
      description: 'price of prompt tokens read from the provider cache (default: the input price)',
      field: 'cachedInputMicrosPer1k',
      parse: microsPer1k,
    },
    {
      name: '--cache-write-input-micros-per-1k',
      value: 'N',
      description: 'price of prompt tokens written to the provider cache (default: the input price)',
      field: 'cacheWriteInputMicrosPer1k',
      parse: microsPer1k,
    },
    {
      name: '--cache-write-1h-input-micros-per-1k',
      value: 'N',
      description: 'price of prompt tokens written to a one-hour cache (ttl "1h"; default: twice the input price, as Anthropic bills)',
      field: 'cacheWrite1hInputMicrosPer1k',
      parse: microsPer1k,
    },
    // Prices beyond tokens, never required: a model is billed only the units it uses.
    ...UNIT_PRICES.map((price) => ({ name: price.flag, value: 'N', description: price.description, field: price.commandField, parse: wholeMicros })),
    // The long-context tier: its threshold, then its token prices.
    { name: LONG_CONTEXT_THRESHOLD.flag, value: 'N|none', description: LONG_CONTEXT_THRESHOLD.description, field: 'longContextAboveTokens', parse: positiveIntegerOrNone },
    ...LONG_CONTEXT_PRICES.map((price) => ({ name: price.flag, value: 'N', description: price.description, field: price.commandField, parse: microsPer1k })),
  ];
}

/** The prices beyond tokens as admin answers print them, each only when set (a unit without a price is free). */
export const UNIT_PRICE_FIELDS = UNIT_PRICES.map((price) => `${price.listName}?`).join(', ');
