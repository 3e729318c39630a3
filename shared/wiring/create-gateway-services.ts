import { requireSetting, type RuntimeConfig } from '../config/runtime-config.ts';
import { createDefaultAwsCredentials } from '../adapters/aws/default-aws-credentials.ts';
import { CoolDown } from '../core/cool-down.ts';
import type { DynamoDocuments } from '../adapters/aws/dynamo-documents.ts';
import type { AwsCredentialSource, GenerationLookup, UpstreamFetch, UsageSink, VideoJobStore } from '../core/ports.ts';
import type { UsageLedgerTables } from '../adapters/aws/dynamo-generation-lookup.ts';
import type { UsageRecord } from '../core/usage-record.ts';
import { createConfigCaches, type ConfigCaches } from '../pipeline/config-caches.ts';
import type { GatewayServices, MalformedUpstreamEvent } from '../pipeline/gateway-services.ts';
import { withMockProvider } from '../providers/mock/with-mock-provider.ts';
import { createNodeHttpFetch } from '../transport/node-http-fetch.ts';
import { withSpill } from '../usage-writer/replay-spilled-usage.ts';
import { awsClientConfig } from './aws-client-config.ts';
import { createAdapters } from './create-adapters.ts';
import { usageLedgerTables } from './dynamo-documents.ts';
import { awsTransport } from './aws-transport.ts';
import { secureRandomBytes } from './secure-random-bytes.ts';
import { loadOnFirstUse } from '../core/load-on-first-use.ts';

/** What a host may give a route group instead of building it from the configuration. */
export interface RouteGroupDependencies {
  /** Where usage records go; SQS (GATEWAY_USAGE_QUEUE_URL, spilling to S3 when it refuses) unless given. The local host gives its durable queue. */
  usageSink?: UsageSink;
  /** Configuration caches; shared with the admin function where both run in one process. */
  caches?: ConfigCaches;
  /** The upstream transport; Node's HTTP client (plus the offline mock provider) unless given. */
  fetch?: UpstreamFetch;
  /** What signs calls to Bedrock providers, DynamoDB, Secrets Manager and the usage queue; the AWS SDK's default chain (the function's role in Lambda) unless given. */
  awsCredentials?: AwsCredentialSource;
}

/** What the request path says about a record the queue refused: spilled (to replay), or not even that. */
export interface UnsentUsageReports {
  spilled(record: UsageRecord, error: unknown): void;
  unsent(record: UsageRecord, error: unknown): void;
}

/** What the request path reports besides its answers: refused records, and upstream events it dropped. */
export interface RequestPathReports extends UnsentUsageReports {
  malformedEvent(report: MalformedUpstreamEvent): void;
}

/**
 * SQS in AWS, with the spill bucket behind it when configured. Both load when first used (the first record
 * is handed over after its answer ended; the spill only when SQS refuses one), so a cold start does not
 * import them before the first answer. The queue is reached over the transport of the function's AWS calls
 * (aws-transport.ts): its endpoint is the deployment's, never a user's.
 */
function createSqsUsageSink(config: RuntimeConfig, reports: UnsentUsageReports, awsCredentials: AwsCredentialSource): UsageSink {
  const queueUrl = requireSetting(config, 'GATEWAY_USAGE_QUEUE_URL');
  const sqs = loadOnFirstUse(async () => {
    const { SqsUsageSink } = await import('../adapters/aws/sqs-usage-sink.ts');
    const queue = { queueUrl, region: config.AWS_REGION, endpoint: config.AWS_ENDPOINT_URL_SQS ?? config.AWS_ENDPOINT_URL };
    return new SqsUsageSink(queue, () => awsCredentials.credentials(undefined), awsTransport());
  });
  const sink: UsageSink = { send: async (record) => (await sqs()).send(record) };
  const spillBucket = config.GATEWAY_USAGE_SPILL_BUCKET;
  if (spillBucket === undefined) return sink;
  const spill = loadOnFirstUse(async () => {
    const [{ S3Client }, { S3UsageSpill }] = await Promise.all([import('@aws-sdk/client-s3'), import('../adapters/aws/s3-usage-spill.ts')]);
    return new S3UsageSpill(new S3Client(awsClientConfig(config.AWS_REGION)), spillBucket);
  });
  return withSpill(sink, { put: async (record) => (await spill()).put(record) }, reports.spilled);
}

/**
 * The offline mock provider, loaded when a request first reaches it: only projects trying the gateway
 * without a provider account call it, so the cold starts of the others do not load it.
 */
function mockProviderOnFirstUse(config: RuntimeConfig, now: () => number): UpstreamFetch {
  const mock = loadOnFirstUse(async () => (await import('../providers/mock/mock-provider-fetch.ts')).createMockProviderFetch({ wordDelayMs: config.GATEWAY_MOCK_WORD_DELAY_MS, now }));
  return async (url, init) => (await mock())(url, init);
}

/**
 * The video jobs' adapter, loaded when first called: only the route group that serves `/v1/videos` ever
 * calls it, so the other cold starts do not load it.
 */
function videoJobsOnFirstUse(documents: DynamoDocuments, table: { name: string; retentionDays: number }): VideoJobStore {
  const store = loadOnFirstUse(async () => new (await import('../adapters/aws/dynamo-video-jobs.ts')).DynamoVideoJobs(documents, table));
  return {
    save: async (job) => (await store()).save(job),
    find: async (projectId, videoId) => (await store()).find(projectId, videoId),
    list: async (projectId) => (await store()).list(projectId),
    claimBilling: async (projectId, videoId, at) => (await store()).claimBilling(projectId, videoId, at),
  };
}

/**
 * The generation records, read when first asked for (`/v1/generation`, a stored response's owner): few
 * requests of a route group read them, so its cold start does not load the ledger's adapter.
 */
function generationsOnFirstUse(documents: DynamoDocuments, tables: UsageLedgerTables): GenerationLookup {
  const ledger = loadOnFirstUse(async () => new (await import('../adapters/aws/dynamo-usage-ledger.ts')).DynamoUsageLedger(documents, tables));
  return {
    findGeneration: async (projectId, requestId) => (await ledger()).findGeneration(projectId, requestId),
    findStoredResponse: async (responseId) => (await ledger()).findStoredResponse(responseId),
  };
}

/** The request path's services from the configuration and what the host injects. */
export function createGatewayServices(config: RuntimeConfig, reports: RequestPathReports, dependencies: RouteGroupDependencies = {}): GatewayServices {
  const awsCredentials = dependencies.awsCredentials ?? createDefaultAwsCredentials();
  const adapters = createAdapters(config, awsCredentials);
  const clock = { now: () => Date.now() };
  return {
    keys: adapters.keys,
    projects: adapters.projects,
    secrets: adapters.secrets,
    fetch: dependencies.fetch ?? withMockProvider(createNodeHttpFetch({ allowPrivateAddresses: config.GATEWAY_ALLOW_PRIVATE_UPSTREAMS }), mockProviderOnFirstUse(config, clock.now)),
    awsCredentials,
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
    usageSink: dependencies.usageSink ?? createSqsUsageSink(config, reports, awsCredentials),
    generations: generationsOnFirstUse(adapters.documents, usageLedgerTables(config)),
    videoJobs: videoJobsOnFirstUse(adapters.documents, { name: config.GATEWAY_GENERATIONS_TABLE, retentionDays: config.GATEWAY_GENERATION_RETENTION_DAYS }),
    rateLimiter: adapters.rateLimiter,
    balances: adapters.balances,
    reportUnsentUsage: reports.unsent,
    reportMalformedUpstreamEvent: reports.malformedEvent,
  };
}
