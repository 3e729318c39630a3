import { effectiveModelLimits } from '../core/known-models.ts';
import { reasonsAsOpenAiModel } from '../core/reasoning-models.ts';
import type { AllowedModel, OrgRateCard, ProjectConfig } from '../core/project-config.ts';
import { describeUnitPrices } from './ratecard-commands.ts';
import { describeLongContextPrices } from './long-context-commands.ts';

/** An allowlisted model as admin commands show it: prices with where they come from, and limits. */
export function describeAllowedModel(model: AllowedModel, config: ProjectConfig, orgRates: OrgRateCard) {
  const projectRate = config.rates.get(model.slug);
  const rate = projectRate ?? orgRates.get(model.slug);
  const limits = effectiveModelLimits(model);
  return {
    slug: model.slug,
    provider: model.provider,
    model: model.model,
    alias: model.alias ?? null,
    kind: model.kind,
    input_price_micros_per_1k: rate?.inputPriceMicrosPer1k ?? 0,
    output_price_micros_per_1k: rate?.outputPriceMicrosPer1k ?? 0,
    cached_input_price_micros_per_1k: rate?.cachedInputPriceMicrosPer1k ?? null,
    cache_write_input_price_micros_per_1k: rate?.cacheWriteInputPriceMicrosPer1k ?? null,
    cache_write_1h_input_price_micros_per_1k: rate?.cacheWrite1hInputPriceMicrosPer1k ?? null,
    ...describeUnitPrices(rate),
    ...describeLongContextPrices(rate),
    price_source: projectRate ? 'project' : rate ? 'organisation' : 'none',
    context_length: limits.contextLength,
    max_output_tokens: limits.maxOutputTokens,
    description: model.description ?? null,
    upstream_api: model.upstreamApi ?? null,
    reasoning: reasonsAsOpenAiModel(model),
    reasoning_source: model.reasoning === undefined ? 'model id' : 'admin',
  };
}
