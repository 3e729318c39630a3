import { SQSClient } from '@aws-sdk/client-sqs';
import { SqsUsageSink } from '../adapters/aws/sqs-usage-sink.ts';
import { requireSetting, type RuntimeConfig } from '../config/runtime-config.ts';
import { CoolDown } from '../core/cool-down.ts';
import type { UpstreamFetch, UsageSink } from '../core/ports.ts';
import type { UsageRecord } from '../core/usage-record.ts';
import { createConfigCaches, type ConfigCaches } from '../pipeline/config-caches.ts';
import type { GatewayServices } from '../pipeline/gateway-services.ts';
import { createMockProviderFetch, withMockProvider } from '../providers/mock/mock-provider-fetch.ts';
import { nodeHttpFetch } from '../transport/node-http-fetch.ts';
import { createAdapters, secureRandomBytes } from './create-adapters.ts';

/** What a host may give a route group instead of building it from the configuration. */
export interface RouteGroupDependencies {
  /** Where usage records go; SQS (GATEWAY_USAGE_QUEUE_URL) unless given. The local host gives its durable queue. */
  usageSink?: UsageSink;
  /** Configuration caches; shared with the admin function where both run in one process. */
  caches?: ConfigCaches;
  /** The upstream transport; Node's HTTP client (plus the offline mock provider) unless given. */
  fetch?: UpstreamFetch;
}

/** The request path's services from the configuration and what the host injects. */
export function createGatewayServices(
  config: RuntimeConfig,
  reportUnsentUsage: (record: UsageRecord, error: unknown) => void,
  dependencies: RouteGroupDependencies = {},
): GatewayServices {
  const adapters = createAdapters(config);
  const clock = { now: () => Date.now() };
  return {
    keys: adapters.keys,
    projects: adapters.projects,
    secrets: adapters.secrets,
    fetch: dependencies.fetch ?? withMockProvider(nodeHttpFetch, createMockProviderFetch({ wordDelayMs: config.GATEWAY_MOCK_WORD_DELAY_MS, now: clock.now })),
    clock,
    randomBytes: secureRandomBytes,
    caches: dependencies.caches ?? createConfigCaches(clock),
    settings: {
      upstreamFirstByteTimeoutMs: config.GATEWAY_UPSTREAM_FIRST_BYTE_TIMEOUT_MS,
      requestDeadlineMs: config.GATEWAY_REQUEST_DEADLINE_MS,
      heartbeatIntervalMs: config.GATEWAY_HEARTBEAT_INTERVAL_MS,
      behindCloudFront: config.GATEWAY_ORIGIN_SECRET_ARN !== undefined,
    },
    coolDown: new CoolDown(clock),
    usageSink: dependencies.usageSink ?? new SqsUsageSink(new SQSClient({ region: config.AWS_REGION }), requireSetting(config, 'GATEWAY_USAGE_QUEUE_URL')),
    generations: adapters.usage,
    rateLimiter: adapters.rateLimiter,
    balances: adapters.balances,
    reportUnsentUsage,
  };
}
