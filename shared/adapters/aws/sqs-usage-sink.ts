import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { UsageSink } from '../../core/ports.ts';
import type { UsageRecord } from '../../core/usage-record.ts';

/** Hands usage records to the writer through SQS, one message per record. */
export class SqsUsageSink implements UsageSink {
  constructor(
    private readonly client: SQSClient,
    private readonly queueUrl: string,
  ) {}

  async send(record: UsageRecord): Promise<void> {
    await this.client.send(new SendMessageCommand({ QueueUrl: this.queueUrl, MessageBody: JSON.stringify(record) }));
  }
}
