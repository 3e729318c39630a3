import type { AdminCommand } from './admin-command.ts';
import type { AdminServices } from './admin-services.ts';

type Command<Name extends AdminCommand['command']> = Extract<AdminCommand, { command: Name }>;

/** Organisation-level default prices; a project's own prices (set by `model allow`) win. */
export async function setOrgRate(services: AdminServices, command: Command<'ratecard.set'>) {
  await services.projects.putOrgRate({
    slug: command.slug,
    inputPriceMicrosPer1k: command.inputMicrosPer1k,
    outputPriceMicrosPer1k: command.outputMicrosPer1k,
    ...withCachePrices(command.cachedInputMicrosPer1k, command.cacheWriteInputMicrosPer1k),
  });
  services.caches.orgRates.clear();
  return listOrgRates(services);
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
    })),
  };
}

/** The optional prices of cache reads and cache writes, only when set. */
export function withCachePrices(cachedInput: number | undefined, cacheWrite: number | undefined) {
  return {
    ...(cachedInput === undefined ? {} : { cachedInputPriceMicrosPer1k: cachedInput }),
    ...(cacheWrite === undefined ? {} : { cacheWriteInputPriceMicrosPer1k: cacheWrite }),
  };
}
