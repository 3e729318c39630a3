import type { ProjectUsageTotals } from '../core/ports.ts';
import { formatUsd } from '../core/price-usage.ts';
import type { OrgRateCard, ProjectConfig } from '../core/project-config.ts';
import { describeAllowedModel } from './describe-allowed-model.ts';
import { describeProvider } from './describe-provider.ts';
import { describeMcpServer } from './describe-mcp-server.ts';

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
    pass_through: project.passThrough === true,
    spent_usd: formatUsd(totals.spentNanos),
    request_count: totals.requestCount,
    /** Null for a postpaid project; net of requests in flight; may dip below 0 when a request outruns its reservation. */
    balance_usd: project.prepaid ? formatUsd(totals.availableNanos ?? 0n) : null,
    /**
     * What the reservations of requests in flight hold (null for postpaid): back in the balance as they
     * settle. Above zero with nothing in flight, it is a reservation a process that ended mid-request left.
     */
    reserved_usd: project.prepaid ? formatUsd(totals.reservedNanos ?? 0n) : null,
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
    providers: [...config.providers.values()].map(describeProvider),
    models: config.models.map((model) => describeAllowedModel(model, config, orgRates)),
    mcp_servers: [...(config.mcpServers?.values() ?? [])].map(describeMcpServer),
  };
}
