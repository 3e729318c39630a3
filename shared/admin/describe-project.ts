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
    /** Null for a postpaid project; net of requests in flight; may dip below 0 when a request outruns its reservation. */
    balance_usd: project.prepaid ? formatSignedUsd(totals.availableNanos ?? 0) : null,
    rpm: project.rpm ?? null,
    tpm: project.tpm ?? null,
    upstream_first_byte_timeout_ms: project.upstreamFirstByteTimeoutMs ?? null,
    request_deadline_ms: project.requestDeadlineMs ?? null,
    removed_members: project.removedMembers ?? [],
    access_policy: {
      allowed_cidrs: project.accessPolicy?.allowedCidrs ?? null,
      allowed_environments: project.accessPolicy?.allowedEnvironments ?? null,
      allowed_endpoints: project.accessPolicy?.allowedEndpoints ?? null,
    },
    created_at: project.createdAt,
    updated_at: project.updatedAt,
    providers: [...config.providers.values()].map((provider) => ({
      provider: provider.provider,
      protocols: provider.protocols,
      auth: provider.auth,
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
        kind: model.kind,
        input_price_micros_per_1k: rate?.inputPriceMicrosPer1k ?? 0,
        output_price_micros_per_1k: rate?.outputPriceMicrosPer1k ?? 0,
        cached_input_price_micros_per_1k: rate?.cachedInputPriceMicrosPer1k ?? null,
        cache_write_input_price_micros_per_1k: rate?.cacheWriteInputPriceMicrosPer1k ?? null,
        price_source: projectRate ? 'project' : rate ? 'organisation' : 'none',
      };
    }),
  };
}

function formatSignedUsd(nanos: number): string {
  return nanos < 0 ? `-${formatUsd(-nanos)}` : formatUsd(nanos);
}
