import { S3Client } from '@aws-sdk/client-s3';
import { SQSClient } from '@aws-sdk/client-sqs';
import { S3UsageSpill } from '../adapters/aws/s3-usage-spill.ts';
import { SqsUsageSink } from '../adapters/aws/sqs-usage-sink.ts';
import { requireSetting, type RuntimeConfig } from '../config/runtime-config.ts';
import { CoolDown } from '../core/cool-down.ts';
import type { UpstreamFetch, UsageSink } from '../core/ports.ts';
import type { UsageRecord } from '../core/usage-record.ts';
import { createConfigCaches, type ConfigCaches } from '../pipeline/config-caches.ts';
import type { GatewayServices } from '../pipeline/gateway-services.ts';
import { createMockProviderFetch, withMockProvider } from '../providers/mock/mock-provider-fetch.ts';
import { createNodeHttpFetch } from '../transport/node-http-fetch.ts';
import { withSpill } from '../usage-writer/replay-spilled-usage.ts';
import { createAdapters, secureRandomBytes } from './create-adapters.ts';

/** What a host may give a route group instead of building it from the configuration. */
export interface RouteGroupDependencies {
  /** Where usage records go; SQS (GATEWAY_USAGE_QUEUE_URL, spilling to S3 when it refuses) unless given. The local host gives its durable queue. */
  usageSink?: UsageSink;
  /** Configuration caches; shared with the admin function where both run in one process. */
  caches?: ConfigCaches;
  /** The upstream transport; Node's HTTP client (plus the offline mock provider) unless given. */
  fetch?: UpstreamFetch;
}

/** What the request path says about a record the queue refused: spilled (to replay), or not even that. */
export interface UnsentUsageReports {
  spilled(record: UsageRecord, error: unknown): void;
  unsent(record: UsageRecord, error: unknown): void;
}

/** SQS in AWS, with the spill bucket behind it when configured. */
function createSqsUsageSink(config: RuntimeConfig, reports: UnsentUsageReports): UsageSink {
  const sqs = new SqsUsageSink(new SQSClient({ region: config.AWS_REGION }), requireSetting(config, 'GATEWAY_USAGE_QUEUE_URL'));
  const spillBucket = config.GATEWAY_USAGE_SPILL_BUCKET;
  if (spillBucket === undefined) return sqs;
  return withSpill(sqs, new S3UsageSpill(new S3Client({ region: config.AWS_REGION }), spillBucket), reports.spilled);
}

/** The request path's services from the configuration and what the host injects. */
export function createGatewayServices(config: RuntimeConfig, reports: UnsentUsageReports, dependencies: RouteGroupDependencies = {}): GatewayServices {
  const adapters = createAdapters(config);
  const clock = { now: () => Date.now() };
  return {
    keys: adapters.keys,
    projects: adapters.projects,
    secrets: adapters.secrets,
    fetch: dependencies.fetch ?? withMockProvider(createNodeHttpFetch({ allowPrivateAddresses: config.GATEWAY_ALLOW_PRIVATE_UPSTREAMS }), createMockProviderFetch({ wordDelayMs: config.GATEWAY_MOCK_WORD_DELAY_MS, now: clock.now })),
    clock,
    randomBytes: secureRandomBytes,
    caches: dependencies.caches ?? createConfigCaches(clock),
    settings: {
      upstreamFirstByteTimeoutMs: config.GATEWAY_UPSTREAM_FIRST_BYTE_TIMEOUT_MS,
      requestDeadlineMs: config.GATEWAY_REQUEST_DEADLINE_MS,
      heartbeatIntervalMs: config.GATEWAY_HEARTBEAT_INTERVAL_MS,
      behindCloudFront: config.GATEWAY_ORIGIN_SECRET_ARN !== undefined,
      ...(config.GATEWAY_ORIGIN_READ_TIMEOUT_MS !== undefined ? { originReadTimeoutMs: config.GATEWAY_ORIGIN_READ_TIMEOUT_MS } : {}),
    },
    coolDown: new CoolDown(clock),
    usageSink: dependencies.usageSink ?? createSqsUsageSink(config, reports),
    generations: adapters.usage,
    videoJobs: adapters.videoJobs,
    rateLimiter: adapters.rateLimiter,
    balances: adapters.balances,
    reportUnsentUsage: reports.unsent,
  };
}
