import { GatewayError } from './errors.ts';
import type { AllowedModel } from './project-config.ts';
import { findAllowedModel } from './resolve-model.ts';
import { SORTS_BY_PRICE_ONLY } from './provider-preferences.ts';

/** A model name as a request gives it, its routing shortcut taken off. */
export interface ModelVariant {
  /** The name to resolve on the allowlist. */
  model: string;
  /** `:floor`: the model's providers cheapest first, as `provider.sort: "price"` asks. */
  sortByPrice: boolean;
}

/**
 * Reads OpenRouter's routing shortcuts, a suffix on a model id: `:floor` is `provider.sort: "price"` for
 * that model, `:nitro` a sort by throughput, which the gateway does not measure (a 400 that says so, as a
 * `provider.sort: "throughput"` gets). A name on the allowlist as it is (a slug or alias that really ends
 * so) is that model. Other suffixes (`:free`, `:thinking`, …) are catalogue entries on OpenRouter: names
 * like any other here.
 */
export function readModelVariant(name: string, models: readonly AllowedModel[]): ModelVariant {
  const suffix = /:(floor|nitro)$/.exec(name);
  if (!suffix || name.length === suffix[0].length || isAllowedName(name, models)) return { model: name, sortByPrice: false };
  if (suffix[1] === 'nitro') {
    throw new GatewayError(
      'invalid_request',
      `The model "${name}" asks with ":nitro" for its fastest provider, but ${SORTS_BY_PRICE_ONLY}. Name the model without ":nitro", or with ":floor" for its cheapest provider.`,
      { code: 'invalid_provider_preferences', param: 'model' },
    );
  }
  return { model: name.slice(0, -suffix[0].length), sortByPrice: true };
}

/** Whether the name itself is on the allowlist (one the allowlist holds under several models is too). */
function isAllowedName(name: string, models: readonly AllowedModel[]): boolean {
  try {
    findAllowedModel(name, models);
    return true;
  } catch (error) {
    return !(error instanceof GatewayError && error.code === 'model_not_allowed');
  }
}
