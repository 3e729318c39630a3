import { createHash, randomUUID } from 'node:crypto';
import { AwsServiceError, startAwsJsonService, type AwsJsonService } from './aws-json-service.ts';

export interface ReceivedMessage {
  queueUrl: string;
  body: string;
}

export interface FakeSqs extends AwsJsonService {
  readonly messages: ReceivedMessage[];
}

/**
 * SQS's JSON 1.0 protocol on loopback, SendMessage only (what the route groups send). `onMessage` is told
 * of each message as it arrives, before the answer goes back to the sender.
 */
export async function startFakeSqs(onMessage: (message: ReceivedMessage) => void = () => {}): Promise<FakeSqs> {
  const messages: ReceivedMessage[] = [];
  const service = await startAwsJsonService({
    targetPrefix: 'AmazonSQS',
    contentType: 'application/x-amz-json-1.0',
    operations: {
      SendMessage(input) {
        if (typeof input.QueueUrl !== 'string' || typeof input.MessageBody !== 'string') {
          throw new AwsServiceError('MissingParameter', 'QueueUrl and MessageBody are required.');
        }
        const message = { queueUrl: input.QueueUrl, body: input.MessageBody };
        messages.push(message);
        onMessage(message);
        // The SDK checks the body's MD5 against this.
        return { MessageId: randomUUID(), MD5OfMessageBody: createHash('md5').update(input.MessageBody).digest('hex') };
      },
    },
  });
  return { ...service, messages };
}
