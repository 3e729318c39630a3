import { SQSClient } from '@aws-sdk/client-sqs';
import { SqsUsageSink } from '../adapters/aws/sqs-usage-sink.ts';
import { requireSetting, type RuntimeConfig } from '../config/runtime-config.ts';
import type { UsageSink } from '../core/ports.ts';
import type { UsageRecord } from '../core/usage-record.ts';
import { inProcessUsageSink } from '../../tools/local-host/in-process-usage-sink.ts';
import { CoolDown } from '../core/cool-down.ts';
import { processConfigCaches } from '../pipeline/config-caches.ts';
import type { GatewayServices } from '../pipeline/gateway-services.ts';
import { createMockProviderFetch, withMockProvider } from '../providers/mock-provider.ts';
import { nodeHttpFetch } from '../transport/node-http-fetch.ts';
import { createAdapters, secureRandomBytes } from './create-adapters.ts';

function createUsageSink(config: RuntimeConfig): UsageSink {
  if (config.GATEWAY_USAGE_SINK === 'in-process') return inProcessUsageSink;
  return new SqsUsageSink(new SQSClient({ region: config.AWS_REGION }), requireSetting(config, 'GATEWAY_USAGE_QUEUE_URL'));
}

/** The request path's services from the cold-start configuration. */
export function createGatewayServices(config: RuntimeConfig, reportUnsentUsage: (record: UsageRecord, error: unknown) => void): GatewayServices {
  const adapters = createAdapters(config);
  const clock = { now: () => Date.now() };
  return {
    keys: adapters.keys,
    projects: adapters.projects,
    secrets: adapters.secrets,
    fetch: withMockProvider(
      nodeHttpFetch,
      createMockProviderFetch({ wordDelayMs: config.GATEWAY_MOCK_WORD_DELAY_MS, now: clock.now }),
    ),
    clock,
    randomBytes: secureRandomBytes,
    caches: processConfigCaches,
    settings: {
      upstreamFirstByteTimeoutMs: config.GATEWAY_UPSTREAM_FIRST_BYTE_TIMEOUT_MS,
      requestDeadlineMs: config.GATEWAY_REQUEST_DEADLINE_MS,
      heartbeatIntervalMs: config.GATEWAY_HEARTBEAT_INTERVAL_MS,
      behindCloudFront: config.GATEWAY_ORIGIN_SECRET_ARN !== undefined,
    },
    coolDown: new CoolDown(clock),
    usageSink: createUsageSink(config),
    generations: adapters.usage,
    rateLimiter: adapters.rateLimiter,
    balances: adapters.balances,
    reportUnsentUsage,
  };
}
