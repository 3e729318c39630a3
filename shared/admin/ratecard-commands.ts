import type { RateCardEntry } from '../core/project-config.ts';
import { UNIT_PRICES, type UnitPriceCommandField, type UnitPriceField } from '../core/unit-prices.ts';
import { describeLongContextPrices, withLongContextPrices } from './long-context-commands.ts';
import type { AdminCommand } from './admin-command.ts';
import type { AdminServices } from './admin-services.ts';
import { showAfterChange } from './shown-after-change.ts';

type Command<Name extends AdminCommand['command']> = Extract<AdminCommand, { command: Name }>;

/**
 * Organisation-level default prices; a project's own prices (set by `model allow`) win. The input and output
 * prices are given each time; the optional ones not given keep the model's current price, as `model allow`
 * keeps them: setting new token prices must not drop a cache-read price set before (its reads would be
 * billed at the full input price).
 */
export async function setOrgRate(services: AdminServices, command: Command<'ratecard.set'>) {
  const previous = (await services.projects.loadOrgRateCard()).get(command.slug);
  await services.projects.putOrgRate({
    slug: command.slug,
    inputPriceMicrosPer1k: command.inputMicrosPer1k,
    outputPriceMicrosPer1k: command.outputMicrosPer1k,
    ...withCachePrices(command, previous),
    ...withUnitPrices(command, previous),
    ...withLongContextPrices(command, previous),
  });
  services.caches.orgRates.clear();
  return showAfterChange(() => listOrgRates(services));
}

export async function listOrgRates(services: AdminServices) {
  const card = await services.projects.loadOrgRateCard();
  return {
    rates: [...card.values()].map((rate) => ({
      slug: rate.slug,
      input_price_micros_per_1k: rate.inputPriceMicrosPer1k,
      output_price_micros_per_1k: rate.outputPriceMicrosPer1k,
      cached_input_price_micros_per_1k: rate.cachedInputPriceMicrosPer1k ?? null,
      cache_write_input_price_micros_per_1k: rate.cacheWriteInputPriceMicrosPer1k ?? null,
      cache_write_1h_input_price_micros_per_1k: rate.cacheWrite1hInputPriceMicrosPer1k ?? null,
      ...describeUnitPrices(rate),
      ...describeLongContextPrices(rate),
    })),
  };
}

/** The prices of cache reads, cache writes and one-hour cache writes a command gives, each filled from the previous entry when not given; only those set. */
export function withCachePrices(
  command: { cachedInputMicrosPer1k?: number | undefined; cacheWriteInputMicrosPer1k?: number | undefined; cacheWrite1hInputMicrosPer1k?: number | undefined },
  previous: RateCardEntry | undefined,
) {
  const cachedInput = command.cachedInputMicrosPer1k ?? previous?.cachedInputPriceMicrosPer1k;
  const cacheWrite = command.cacheWriteInputMicrosPer1k ?? previous?.cacheWriteInputPriceMicrosPer1k;
  const cacheWrite1h = command.cacheWrite1hInputMicrosPer1k ?? previous?.cacheWrite1hInputPriceMicrosPer1k;
  return {
    ...(cachedInput === undefined ? {} : { cachedInputPriceMicrosPer1k: cachedInput }),
    ...(cacheWrite === undefined ? {} : { cacheWriteInputPriceMicrosPer1k: cacheWrite }),
    ...(cacheWrite1h === undefined ? {} : { cacheWrite1hInputPriceMicrosPer1k: cacheWrite1h }),
  };
}

/** The prices beyond tokens a command gives, each filled from the previous entry when not given; only those set. */
export function withUnitPrices(command: Partial<Record<UnitPriceCommandField, number>>, previous: RateCardEntry | undefined): Partial<Record<UnitPriceField, number>> {
  const prices: Partial<Record<UnitPriceField, number>> = {};
  for (const price of UNIT_PRICES) {
    const value = command[price.commandField] ?? previous?.[price.rateField];
    if (value !== undefined) prices[price.rateField] = value;
  }
  return prices;
}

/** The prices beyond tokens as admin answers print them: those set (a unit without a price is free). */
export function describeUnitPrices(rate: RateCardEntry | undefined): Record<string, number> {
  const described: Record<string, number> = {};
  for (const price of UNIT_PRICES) {
    const micros = rate?.[price.rateField];
    if (micros !== undefined) described[price.listName] = micros;
  }
  return described;
}
