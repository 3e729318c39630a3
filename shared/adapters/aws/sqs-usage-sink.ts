import { hash } from 'node:crypto';
import { parseJsonObject } from '../../core/json-object.ts';
import type { AwsCredentials, UpstreamFetch, UsageSink } from '../../core/ports.ts';
import type { UsageRecord } from '../../core/usage-record.ts';
import { awsErrorName } from '../../transport/aws-error-name.ts';
import { createAwsSigner, type AwsCallSigner } from '../../transport/sign-aws-call.ts';

export interface UsageQueue {
  queueUrl: string;
  region: string;
  /** `AWS_ENDPOINT_URL_SQS` (a VPC endpoint, a local stand-in); else the queue URL's own origin, as the SDK does. */
  endpoint?: string | undefined;
}

/** Tries per record, as the AWS SDK's standard retry mode: then the caller spills the record. */
const ATTEMPTS = 3;
/** The SDK's standard mode: back-off from 100 ms, from 500 ms after throttling. */
const RETRY_DELAY_MS = 100;
const THROTTLED_RETRY_DELAY_MS = 500;
const RETRYABLE_STATUSES = new Set([429, 500, 502, 503, 504]);
/** Refusals worth another try whatever their status: throttling (SQS's or KMS's), a time-out. */
const RETRYABLE_TYPES = /Throttl|RequestTimeout|TooManyRequests|ServiceUnavailable|InternalError|InternalFailure/;
/** A try that has not been answered by then is abandoned (and tried again): a record is never held for long. */
const ATTEMPT_TIMEOUT_MS = 5_000;

/** How the sink waits: between tries, and for an answer (tests shorten both). */
export interface SqsSendTiming {
  sleep?: (ms: number) => Promise<void>;
  attemptTimeoutMs?: number;
}

/** SQS refused the message, or answered something that is not an acceptance. */
export class SqsSendError extends Error {
  readonly retryable: boolean;
  readonly throttled: boolean;

  constructor(message: string, options: { retryable: boolean; throttled?: boolean }) {
    super(message);
    this.retryable = options.retryable;
    this.throttled = options.throttled ?? false;
    this.name = 'SqsSendError';
  }
}

/**
 * Hands usage records to the writer through SQS, one message per record: `SendMessage` in SQS's JSON
 * protocol, signed by the AWS SDK's SigV4 signer with the SDK's credential chain, over the gateway's
 * keep-alive HTTP transport. Not the SDK's SQSClient: its per-call middleware (endpoint rule evaluation,
 * schema serde, a signer built per call) cost 630–830 µs of CPU per record, on the core that serves the
 * next request; this costs 360–420 (docs/decisions/usage-queue-client.md). Retries throttling, 5xx and
 * connection errors (the writer applies a record once, so a resend after a lost answer counts nothing
 * twice) and checks the body's MD5 as the SDK does. A FIFO queue gets the record id as its message group
 * and deduplication id.
 */
export class SqsUsageSink implements UsageSink {
  private readonly queue: UsageQueue;
  private readonly fetch: UpstreamFetch;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly attemptTimeoutMs: number;
  private readonly sign: AwsCallSigner;
  /** Where calls go: the endpoint override, else the queue URL's origin. */
  private readonly url: string;

  constructor(
    queue: UsageQueue,
    credentials: () => Promise<AwsCredentials>,
    fetch: UpstreamFetch,
    timing: SqsSendTiming = {},
  ) {
    this.queue = queue;
    this.fetch = fetch;
    this.sleep = timing.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.attemptTimeoutMs = timing.attemptTimeoutMs ?? ATTEMPT_TIMEOUT_MS;
    this.sign = createAwsSigner({ service: 'sqs', region: queue.region, credentials });
    this.url = `${(queue.endpoint ?? new URL(queue.queueUrl).origin).replace(/\/+$/, '')}/`;
  }

  async send(record: UsageRecord): Promise<void> {
    const messageBody = JSON.stringify(record);
    const fifo = this.queue.queueUrl.endsWith('.fifo') ? { MessageGroupId: record.recordId, MessageDeduplicationId: record.recordId } : {};
    const body = JSON.stringify({ QueueUrl: this.queue.queueUrl, MessageBody: messageBody, ...fifo });
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await this.sendOnce(body, messageBody);
      } catch (error) {
        const refusal = error instanceof SqsSendError ? error : undefined;
        if ((refusal && !refusal.retryable) || attempt === ATTEMPTS) throw error;
        // Exponential back-off with full jitter, as the SDK's standard mode.
        const base = refusal?.throttled ? THROTTLED_RETRY_DELAY_MS : RETRY_DELAY_MS;
        await this.sleep(Math.random() * base * 2 ** (attempt - 1));
      }
    }
  }

  private async sendOnce(body: string, messageBody: string): Promise<void> {
    const call = { url: this.url, method: 'POST', headers: { 'content-type': 'application/x-amz-json-1.0', 'x-amz-target': 'AmazonSQS.SendMessage' }, body };
    const headers = await this.sign(call);
    const response = await this.fetch(call.url, { method: 'POST', headers, body, signal: AbortSignal.timeout(this.attemptTimeoutMs) });
    const text = await response.text();
    const answer = parseJsonObject(text);
    if (!response.ok) {
      // The JSON protocol names the error in a header or in `__type` (`com.amazonaws.sqs#QueueDoesNotExist`).
      const type = awsErrorName(response.headers.get('x-amzn-errortype') ?? (typeof answer?.__type === 'string' ? answer.__type : undefined)) ?? 'UnknownError';
      const words = answer?.message ?? answer?.Message;
      const message = typeof words === 'string' ? words : text.slice(0, 200);
      const throttled = response.status === 429 || /Throttl|TooManyRequests/.test(type);
      throw new SqsSendError(`SQS refused the usage record (${response.status} ${type}): ${message}`, {
        retryable: RETRYABLE_STATUSES.has(response.status) || RETRYABLE_TYPES.test(type),
        throttled,
      });
    }
    if (typeof answer?.MD5OfMessageBody !== 'string') {
      throw new SqsSendError(`SQS answered ${response.status} without a SendMessage result: ${text.slice(0, 200)}`, { retryable: true });
    }
    if (answer.MD5OfMessageBody !== hash('md5', messageBody, 'hex')) {
      throw new SqsSendError('SQS acknowledged the usage record with an MD5 that does not match its body', { retryable: true });
    }
  }
}

/** The region in a queue URL's host (`sqs.eu-west-1.amazonaws.com`, or the legacy `eu-west-1.queue.amazonaws.com`). */
export function regionOfQueueUrl(queueUrl: string): string | undefined {
  const host = new URL(queueUrl).hostname;
  return /^sqs[.-]([a-z0-9-]+)\.amazonaws\.com/.exec(host)?.[1] ?? /^([a-z0-9-]+)\.queue\.amazonaws\.com/.exec(host)?.[1];
}
