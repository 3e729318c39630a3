import { createHash, randomUUID } from 'node:crypto';
import { AwsServiceError, startAwsJsonService, type AwsJsonService } from './aws-json-service.ts';
import { checkSigV4, type SigV4Expectation } from './sigv4-check.ts';

export interface ReceivedMessage {
  queueUrl: string;
  body: string;
  /** A FIFO queue's fields, when sent. */
  messageGroupId?: string;
  messageDeduplicationId?: string;
}

function fifoFields(input: Record<string, unknown>): Pick<ReceivedMessage, 'messageGroupId' | 'messageDeduplicationId'> {
  return {
    ...(typeof input.MessageGroupId === 'string' ? { messageGroupId: input.MessageGroupId } : {}),
    ...(typeof input.MessageDeduplicationId === 'string' ? { messageDeduplicationId: input.MessageDeduplicationId } : {}),
  };
}

export interface FakeSqs extends AwsJsonService {
  /** The messages taken. */
  readonly messages: ReceivedMessage[];
  /** Every signed send, taken or refused by refuseNext (each one an SQS call IAM authorized). */
  readonly attempts: ReceivedMessage[];
  /** The next `count` sends are refused with this error (status 400 unless given), before any is taken. */
  refuseNext(count: number, type: string, status?: number): void;
  /** The next send is taken but acknowledged wrongly: with another body's MD5, or with no SendMessage result. */
  acknowledgeNextWrongly(how: 'wrong-md5' | 'no-result'): void;
  /** How many sends were refused (a refusal scripted with refuseNext, or a bad signature). */
  readonly refusals: number;
}

export interface FakeSqsOptions {
  /** Told of each message as it arrives, before the answer goes back to the sender. */
  onMessage?: (message: ReceivedMessage) => void;
  /** When given, every send must be signed for `sqs` in this region with one of these credentials (403 otherwise). */
  signedWith?: Omit<SigV4Expectation, 'service'>;
}

/** SQS's JSON 1.0 protocol on loopback, SendMessage only (what the route groups send). */
export async function startFakeSqs(options: FakeSqsOptions = {}): Promise<FakeSqs> {
  const messages: ReceivedMessage[] = [];
  const attempts: ReceivedMessage[] = [];
  const scripted: Array<{ type: string; status: number }> = [];
  let wrongAcknowledgement: 'wrong-md5' | 'no-result' | undefined;
  let refusals = 0;
  const signedWith = options.signedWith;
  const service = await startAwsJsonService({
    targetPrefix: 'AmazonSQS',
    contentType: 'application/x-amz-json-1.0',
    ...(signedWith
      ? {
          async authorize(request, body) {
            const verdict = await checkSigV4(request, body, { service: 'sqs', ...signedWith });
            if (!('refusal' in verdict)) return undefined;
            refusals += 1;
            return { status: 403, ...verdict.refusal };
          },
        }
      : {}),
    operations: {
      SendMessage(input) {
        if (typeof input.QueueUrl !== 'string' || typeof input.MessageBody !== 'string') {
          throw new AwsServiceError('MissingParameter', 'QueueUrl and MessageBody are required.');
        }
        const message = { queueUrl: input.QueueUrl, body: input.MessageBody, ...fifoFields(input) };
        attempts.push(message);
        const refusal = scripted.shift();
        if (refusal) {
          refusals += 1;
          // As SQS names it in its JSON protocol: with the service's namespace.
          throw new AwsServiceError(`com.amazonaws.sqs#${refusal.type}`, `refused by the test (${refusal.type})`, refusal.status);
        }
        messages.push(message);
        options.onMessage?.(message);
        const acknowledgement = wrongAcknowledgement;
        wrongAcknowledgement = undefined;
        if (acknowledgement === 'no-result') return {};
        // The sender checks the body's MD5 against this.
        const md5 = createHash('md5').update(acknowledgement === 'wrong-md5' ? `${input.MessageBody} ` : input.MessageBody).digest('hex');
        return { MessageId: randomUUID(), MD5OfMessageBody: md5 };
      },
    },
  });
  return {
    ...service,
    messages,
    attempts,
    refuseNext(count, type, status = 400) {
      for (let index = 0; index < count; index += 1) scripted.push({ type, status });
    },
    acknowledgeNextWrongly(how) {
      wrongAcknowledgement = how;
    },
    get refusals() {
      return refusals;
    },
  };
}
