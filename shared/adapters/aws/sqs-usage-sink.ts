import { hash } from 'node:crypto';
import type { AwsCredentials, UpstreamFetch, UsageSink } from '../../core/ports.ts';
import type { UsageRecord } from '../../core/usage-record.ts';
import { AwsJsonService, AwsServiceError, type AwsCallTiming } from '../../transport/aws-json-service.ts';

export interface UsageQueue {
  queueUrl: string;
  region: string;
  /** `AWS_ENDPOINT_URL_SQS` (a VPC endpoint, a local stand-in); else the queue URL's own origin, as the SDK does. */
  endpoint?: string | undefined;
}

/**
 * Hands usage records to the writer through SQS, one message per record: `SendMessage` in SQS's JSON
 * protocol (shared/transport/aws-json-service.ts), with the SDK's credential chain, over the gateway's
 * keep-alive HTTP transport. Not the SDK's SQSClient: its per-call middleware (endpoint rule evaluation,
 * schema serde, a signer built per call) cost 630–830 µs of CPU per record, on the core that serves the
 * next request; this costs 360–420 (docs/decisions/usage-queue-client.md). Retries throttling, 5xx and
 * connection errors (the writer applies a record once, so a resend after a lost answer counts nothing
 * twice) and checks the body's MD5 as the SDK does. A FIFO queue gets the record id as its message group
 * and deduplication id.
 */
export class SqsUsageSink implements UsageSink {
  private readonly queue: UsageQueue;
  private readonly sqs: AwsJsonService;

  constructor(queue: UsageQueue, credentials: () => Promise<AwsCredentials>, fetch: UpstreamFetch, timing: AwsCallTiming = {}) {
    this.queue = queue;
    // The endpoint override, else the queue URL's own origin, as the SDK does.
    const endpoint = queue.endpoint ?? new URL(queue.queueUrl).origin;
    this.sqs = new AwsJsonService({ signingName: 'sqs', targetPrefix: 'AmazonSQS', jsonVersion: '1.0', region: queue.region, endpoint, credentials, fetch, timing });
  }

  async send(record: UsageRecord): Promise<void> {
    const messageBody = JSON.stringify(record);
    const fifo = this.queue.queueUrl.endsWith('.fifo') ? { MessageGroupId: record.recordId, MessageDeduplicationId: record.recordId } : {};
    await this.sqs.call('SendMessage', { QueueUrl: this.queue.queueUrl, MessageBody: messageBody, ...fifo }, (answer) => {
      if (typeof answer.MD5OfMessageBody !== 'string') {
        throw new AwsServiceError('MalformedAnswer', `SQS answered without a SendMessage result: ${JSON.stringify(answer).slice(0, 200)}`, { status: 200, retryable: true });
      }
      if (answer.MD5OfMessageBody !== hash('md5', messageBody, 'hex')) {
        throw new AwsServiceError('MD5Mismatch', 'SQS acknowledged the usage record with an MD5 that does not match its body', { status: 200, retryable: true });
      }
    });
  }
}

/** The region in a queue URL's host (`sqs.eu-west-1.amazonaws.com`, or the legacy `eu-west-1.queue.amazonaws.com`). */
export function regionOfQueueUrl(queueUrl: string): string | undefined {
  const host = new URL(queueUrl).hostname;
  return /^sqs[.-]([a-z0-9-]+)\.amazonaws\.com/.exec(host)?.[1] ?? /^([a-z0-9-]+)\.queue\.amazonaws\.com/.exec(host)?.[1];
}
