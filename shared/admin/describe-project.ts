import type { ProjectUsageTotals } from '../core/ports.ts';
import { formatUsd } from '../core/price-usage.ts';
import type { OrgRateCard, ProjectConfig } from '../core/project-config.ts';

/** A project as the admin CLI shows it: configuration and prices, never a secret. */
export function describeProject(config: ProjectConfig, orgRates: OrgRateCard, totals: ProjectUsageTotals) {
  const { project } = config;
  return {
    id: project.projectId,
    name: project.name,
    plan: project.plan,
    usage_injection: project.usageInjection,
    failover: project.failover,
    mcp: project.mcp,
    spent_usd: formatUsd(totals.spentNanos),
    request_count: totals.requestCount,
    /** Null for a postpaid project; may be negative once spend passes the credit. */
    balance_usd: totals.creditNanos === undefined ? null : formatSignedUsd(totals.creditNanos - totals.spentNanos),
    created_at: project.createdAt,
    updated_at: project.updatedAt,
    providers: [...config.providers.values()].map((provider) => ({
      provider: provider.provider,
      protocol: provider.protocol,
      base_url: provider.baseUrl,
      has_api_key: provider.hasApiKey,
    })),
    models: config.models.map((model) => {
      const projectRate = config.rates.get(model.slug);
      const rate = projectRate ?? orgRates.get(model.slug);
      return {
        slug: model.slug,
        provider: model.provider,
        model: model.model,
        alias: model.alias ?? null,
        input_price_micros_per_1k: rate?.inputPriceMicrosPer1k ?? 0,
        output_price_micros_per_1k: rate?.outputPriceMicrosPer1k ?? 0,
        cached_input_price_micros_per_1k: rate?.cachedInputPriceMicrosPer1k ?? null,
        price_source: projectRate ? 'project' : rate ? 'organisation' : 'none',
      };
    }),
  };
}

function formatSignedUsd(nanos: number): string {
  return nanos < 0 ? `-${formatUsd(-nanos)}` : formatUsd(nanos);
}
