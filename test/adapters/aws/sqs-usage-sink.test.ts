import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { mockClient, type AwsClientStub } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SqsUsageSink } from '../../../shared/adapters/aws/sqs-usage-sink.ts';
import { usageRecordSchema } from '../../../shared/core/usage-record.ts';
import { sampleRecord } from '../../support/sample-usage-record.ts';

const QUEUE_URL = 'https://sqs.us-east-1.amazonaws.com/123456789012/gateway-usage';

describe('SqsUsageSink', () => {
  let sqs: AwsClientStub<SQSClient>;
  let sink: SqsUsageSink;

  beforeAll(() => {
    sqs = mockClient(SQSClient);
    sink = new SqsUsageSink(new SQSClient({ region: 'us-east-1' }), QUEUE_URL);
  });
  afterEach(() => sqs.reset());
  afterAll(() => sqs.restore());

  it('sends one message to the usage queue whose body is the record as JSON', async () => {
    sqs.on(SendMessageCommand).resolves({ MessageId: 'message-1' });
    const record = sampleRecord({ upstreamId: 'chatcmpl-1', attribution: { environment: 'prod', sessionId: 'session-9' } });

    await sink.send(record);

    const calls = sqs.commandCalls(SendMessageCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.args[0].input).toEqual({ QueueUrl: QUEUE_URL, MessageBody: JSON.stringify(record) });
  });

  it('sends a body the writer parses back into the same record', async () => {
    sqs.on(SendMessageCommand).resolves({ MessageId: 'message-2' });
    const record = sampleRecord({ status: 'failed', httpStatus: 502, errorCode: 'upstream_error', costNanos: 0 });

    await sink.send(record);

    const body = sqs.commandCalls(SendMessageCommand)[0]?.args[0].input.MessageBody ?? '';
    expect(usageRecordSchema.parse(JSON.parse(body))).toEqual(record);
  });

  it('sends each record as its own message', async () => {
    sqs.on(SendMessageCommand).resolves({ MessageId: 'message-n' });
    const records = [sampleRecord(), sampleRecord(), sampleRecord()];

    for (const record of records) await sink.send(record);

    const bodies = sqs.commandCalls(SendMessageCommand).map((call) => call.args[0].input.MessageBody);
    expect(bodies).toEqual(records.map((record) => JSON.stringify(record)));
  });

  it('rejects when SQS refuses the message', async () => {
    sqs.on(SendMessageCommand).rejects(new Error('queue unavailable'));

    await expect(sink.send(sampleRecord())).rejects.toThrow('queue unavailable');
  });
});
