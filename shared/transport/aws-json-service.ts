import { parseJsonObject } from '../core/json-object.ts';
import type { AwsCredentials, UpstreamFetch } from '../core/ports.ts';
import { awsErrorName } from './aws-error-name.ts';
import type { OutgoingCall } from './provider-auth.ts';
import { createAwsSigner, type AwsCallSigner, type AwsSigning } from './sign-aws-call.ts';

/** Tries per call, as the AWS SDK's standard retry mode. */
const ATTEMPTS = 3;
/** The SDK's standard mode: back-off from 100 ms, from 500 ms after throttling. */
const RETRY_DELAY_MS = 100;
const THROTTLED_RETRY_DELAY_MS = 500;
const RETRYABLE_STATUSES = new Set([429, 500, 502, 503, 504]);
/** Refusals worth another try whatever their status: throttling (the service's, DynamoDB's capacity, S3's SlowDown, KMS's), a time-out. */
const RETRYABLE_TYPES = /Throttl|SlowDown|ProvisionedThroughputExceeded|RequestLimitExceeded|RequestTimeout|TooManyRequests|ServiceUnavailable|InternalError|InternalFailure|InternalServerError/;
const THROTTLING_TYPES = /Throttl|SlowDown|ProvisionedThroughputExceeded|RequestLimitExceeded|TooManyRequests/;
/** A try that has not been answered by then is abandoned (and tried again): a caller is never held for long. */
const ATTEMPT_TIMEOUT_MS = 5_000;

/** How a service's calls wait: between tries, and for an answer (tests shorten both). */
export interface AwsCallTiming {
  sleep?: (ms: number) => Promise<void>;
  attemptTimeoutMs?: number;
}

export interface AwsJsonServiceOptions {
  /** The service's signing name: `dynamodb`, `sqs`, `secretsmanager`. */
  signingName: string;
  /** What precedes the operation in `x-amz-target`: `DynamoDB_20120810`, `AmazonSQS`, `secretsmanager`. */
  targetPrefix: string;
  /** The protocol's JSON version: 1.0 (DynamoDB, SQS) or 1.1 (Secrets Manager). */
  jsonVersion: '1.0' | '1.1';
  region: string;
  /** Where calls go: the service's regional endpoint, or an override (a VPC endpoint, a local stand-in). */
  endpoint: string;
  credentials: () => Promise<AwsCredentials>;
  fetch: UpstreamFetch;
  timing?: AwsCallTiming;
}

/**
 * The service refused a call, or answered something that is not the operation's result. `name` is the
 * service's error type (`ConditionalCheckFailedException`, `ResourceNotFoundException`), as the SDK's
 * exceptions name themselves, so callers tell refusals apart by name; `details` is the error's body.
 */
export class AwsServiceError extends Error {
  readonly status: number;
  readonly retryable: boolean;
  readonly throttled: boolean;
  readonly details: Readonly<Record<string, unknown>>;

  constructor(type: string, message: string, options: { status: number; retryable: boolean; throttled?: boolean; details?: Record<string, unknown> }) {
    super(message);
    this.name = type;
    this.status = options.status;
    this.retryable = options.retryable;
    this.throttled = options.throttled ?? false;
    this.details = options.details ?? {};
  }
}

/** JSON carries bytes (a DynamoDB binary attribute) as base64, as the SDK's serializer sends them. */
function bytesAsBase64(this: Record<string, unknown>, name: string, value: unknown): unknown {
  // The holder's own value: a Buffer has already become `{ type: 'Buffer', data }` through its toJSON.
  const original = this[name];
  return original instanceof Uint8Array ? Buffer.from(original).toString('base64') : value;
}

/**
 * Runs a call again as the SDK's standard retry mode does: up to three tries, after an exponential back-off
 * with full jitter (from 100 ms, from 500 ms after throttling), while it fails with a retryable
 * AwsServiceError or without an answer (a connection error, a time-out).
 */
async function retriedAsTheSdkDoes<T>(call: () => Promise<T>, sleep: (ms: number) => Promise<void>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await call();
    } catch (error) {
      const refusal = error instanceof AwsServiceError ? error : undefined;
      if ((refusal && !refusal.retryable) || attempt === ATTEMPTS) throw error;
      const base = refusal?.throttled ? THROTTLED_RETRY_DELAY_MS : RETRY_DELAY_MS;
      await sleep(Math.random() * base * 2 ** (attempt - 1));
    }
  }
}

/** A refusal's retry class, by its status and its type, as the SDK's standard mode classifies them. */
export function refusalOf(status: number, type: string, message: string, details?: Record<string, unknown>): AwsServiceError {
  return new AwsServiceError(type, message, {
    status,
    retryable: RETRYABLE_STATUSES.has(status) || RETRYABLE_TYPES.test(type),
    throttled: status === 429 || THROTTLING_TYPES.test(type),
    ...(details ? { details } : {}),
  });
}

/** The default wait between tries. */
const sleepMs = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Whether an error is a service's refusal of that type: ours, or the SDK's exception of that name. */
export function isAwsError(error: unknown, type: string): error is Error {
  return error instanceof Error && error.name === type;
}

/** What every signed call to an AWS service shares: its signer, its transport, its time-out and its retries. */
export abstract class SignedAwsCalls {
  private readonly sign: AwsCallSigner;
  private readonly fetch: UpstreamFetch;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly attemptTimeoutMs: number;

  protected constructor(signing: AwsSigning, fetch: UpstreamFetch, timing: AwsCallTiming = {}) {
    this.sign = createAwsSigner(signing);
    this.fetch = fetch;
    this.sleep = timing.sleep ?? sleepMs;
    this.attemptTimeoutMs = timing.attemptTimeoutMs ?? ATTEMPT_TIMEOUT_MS;
  }

  /** One try: the call signed and sent, abandoned if it is not answered within the attempt's time-out. */
  protected async sendSigned(call: OutgoingCall): Promise<Response> {
    const headers = await this.sign(call);
    return this.fetch(call.url, { method: call.method, headers, body: call.body as BodyInit, signal: AbortSignal.timeout(this.attemptTimeoutMs) });
  }

  /** A call tried as the SDK's standard mode tries it. */
  protected retried<T>(call: () => Promise<T>): Promise<T> {
    return retriedAsTheSdkDoes(call, this.sleep);
  }
}

/**
 * One AWS service spoken in its JSON protocol (`x-amz-target` names the operation), signed by the SDK's
 * SigV4 signer over the caller's keep-alive transport. Not the SDK's clients: their per-call middleware
 * (endpoint rule evaluation, schema serde, a signer built per call) costs CPU on the request's core, and
 * their code is most of what a cold start compiles (docs/decisions/aws-json-calls.md). Retries as the
 * SDK's standard mode: throttling, 5xx and connection errors, three tries with jittered back-off.
 */
export class AwsJsonService extends SignedAwsCalls {
  private readonly options: AwsJsonServiceOptions;
  private readonly url: string;

  constructor(options: AwsJsonServiceOptions) {
    super({ service: options.signingName, region: options.region, credentials: options.credentials }, options.fetch, options.timing);
    this.options = options;
    this.url = `${options.endpoint.replace(/\/+$/, '')}/`;
  }

  /**
   * The operation's result. `check` may refuse a result that is not whole (throwing a retryable
   * AwsServiceError tries again).
   */
  async call(operation: string, input: object, check?: (result: Record<string, unknown>) => void): Promise<Record<string, unknown>> {
    const body = JSON.stringify(input, bytesAsBase64);
    return this.retried(async () => {
      const result = await this.callOnce(operation, body);
      check?.(result);
      return result;
    });
  }

  private async callOnce(operation: string, body: string): Promise<Record<string, unknown>> {
    const { signingName, targetPrefix, jsonVersion } = this.options;
    const call = { url: this.url, method: 'POST', headers: { 'content-type': `application/x-amz-json-${jsonVersion}`, 'x-amz-target': `${targetPrefix}.${operation}` }, body };
    const response = await this.sendSigned(call);
    const text = await response.text();
    const answer = parseJsonObject(text);
    if (response.ok && answer) return answer;
    if (response.ok) throw new AwsServiceError('MalformedAnswer', `${signingName} answered ${operation} with something that is not JSON: ${text.slice(0, 200)}`, { status: response.status, retryable: true });
    // The JSON protocols name the error in a header or in `__type` (`com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException`).
    const type = awsErrorName(response.headers.get('x-amzn-errortype') ?? (typeof answer?.__type === 'string' ? answer.__type : undefined)) ?? 'UnknownError';
    const words = answer?.message ?? answer?.Message;
    const message = typeof words === 'string' ? words : text.slice(0, 200);
    throw refusalOf(response.status, type, `${signingName} refused ${operation} (${response.status} ${type}): ${message}`, answer);
  }
}

/**
 * A service's regional endpoint, as the SDK resolves it for the standard partitions: `https://<service>.<region>.amazonaws.com`
 * (`.amazonaws.com.cn` in China); an override (`AWS_ENDPOINT_URL_<SERVICE>`, `AWS_ENDPOINT_URL`) wins.
 */
export function regionalEndpoint(endpointPrefix: string, region: string, override?: string): string {
  if (override !== undefined) return override;
  return `https://${endpointPrefix}.${region}.amazonaws.com${region.startsWith('cn-') ? '.cn' : ''}`;
}
