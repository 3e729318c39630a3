import type {
  AwsCredentialSource,
  Clock,
  GenerationLookup,
  KeyStore,
  ProjectBalanceStore,
  RateLimiter,
  ProjectConfigSource,
  ProviderSecrets,
  RandomBytes,
  UpstreamFetch,
  UsageSink,
  VideoJobStore,
} from '../core/ports.ts';
import type { CoolDown } from '../core/cool-down.ts';
import type { UsageRecord } from '../core/usage-record.ts';
import type { ConfigCaches } from './config-caches.ts';

/** Everything a route group needs, injected: stores, secrets, the upstream transport, time and randomness. */
export interface GatewayServices {
  keys: Pick<KeyStore, 'findByHash'>;
  projects: ProjectConfigSource;
  secrets: Pick<ProviderSecrets, 'getApiKey'>;
  fetch: UpstreamFetch;
  /** The gateway's own AWS credentials, which sign calls to Bedrock providers. */
  awsCredentials: AwsCredentialSource;
  clock: Clock;
  randomBytes: RandomBytes;
  caches: ConfigCaches;
  settings: GatewaySettings;
  /** Upstream targets that failed recently, tried last. */
  coolDown: CoolDown;
  usageSink: UsageSink;
  generations: GenerationLookup;
  /** The video jobs each project created. */
  videoJobs: VideoJobStore;
  rateLimiter: RateLimiter;
  /** Reservations for prepaid requests; the totals for `GET /v1/key` and `GET /v1/credits`. */
  balances: Pick<ProjectBalanceStore, 'reserve' | 'release' | 'loadUsageTotals'>;
  /** Last resort when the usage sink refuses a record: log it whole for replay. */
  reportUnsentUsage(record: UsageRecord, error: unknown): void;
  /** An upstream stream event dropped because its data is broken JSON: logged, to tell the provider. */
  reportMalformedUpstreamEvent(report: MalformedUpstreamEvent): void;
}

/** Where a dropped event came from; never its data, which may hold part of a completion. */
export interface MalformedUpstreamEvent {
  requestId: string;
  provider: string;
  model: string;
  /** The length of its data, in characters. */
  dataLength: number;
}

export interface GatewaySettings {
  /** Wait for an upstream's response head, per attempt; generous, as reasoning models think before answering. */
  upstreamFirstByteTimeoutMs: number;
  /** The whole request's budget across attempts (a Lambda lives at most 15 minutes). */
  requestDeadlineMs: number;
  /** Interval of SSE comment heartbeats while a stream's upstream is silent. */
  heartbeatIntervalMs: number;
  /** Requests are verified to come through CloudFront (origin secret), so its viewer headers can be trusted. */
  behindCloudFront: boolean;
  /**
   * CloudFront's origin read timeout: the longest silence before it gives up on the origin. Streams are
   * committed before it, JSON answers must start before it. Undefined where no CloudFront stands in front.
   */
  originReadTimeoutMs?: number;
  /**
   * The host runs GatewayResponse.afterAnswer once the answer has ended: usage records are handed over
   * then, so that no answer waits for the usage queue.
   */
  handsOverUsageAfterAnswer?: boolean;
}

/** Function URLs refuse bodies over 6 MB; the gateway says so in the client's protocol. */
export const MAX_REQUEST_BODY_BYTES = 6 * 1024 * 1024;
