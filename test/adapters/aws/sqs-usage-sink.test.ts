import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { AwsServiceError } from '../../../shared/transport/aws-json-service.ts';
import { regionOfQueueUrl, SqsUsageSink } from '../../../shared/adapters/aws/sqs-usage-sink.ts';
import { usageRecordSchema } from '../../../shared/core/usage-record.ts';
import { createNodeHttpFetch } from '../../../shared/transport/node-http-fetch.ts';
import { startFakeSqs, type FakeSqs } from '../../support/fake-sqs.ts';
import { sampleRecord } from '../../support/sample-usage-record.ts';

const QUEUE_URL = 'https://sqs.us-east-1.amazonaws.com/123456789012/gateway-usage';
const ROLE = { accessKeyId: 'AKIDUSAGEQUEUE000001', secretAccessKey: 'usage-queue-secret-0123456789', sessionToken: 'usage-queue-session' };

let sqs: FakeSqs;
const transport = createNodeHttpFetch({ allowPrivateAddresses: true });
const delays: number[] = [];

function sinkFor(options: { region?: string; credentials?: typeof ROLE } = {}): SqsUsageSink {
  return new SqsUsageSink(
    { queueUrl: QUEUE_URL, region: options.region ?? 'us-east-1', endpoint: sqs.endpoint },
    async () => options.credentials ?? ROLE,
    transport,
    { sleep: async (ms) => void delays.push(ms) },
  );
}

beforeAll(async () => {
  sqs = await startFakeSqs({ signedWith: { region: 'us-east-1', credentials: { [ROLE.accessKeyId]: { secretAccessKey: ROLE.secretAccessKey, sessionToken: ROLE.sessionToken } } } });
});
afterEach(() => {
  sqs.messages.length = 0;
  delays.length = 0;
  vi.restoreAllMocks();
});
afterAll(() => sqs.close());

describe('SqsUsageSink', () => {
  it("sends one SendMessage to the usage queue, signed for SQS with the role's credentials, whose body is the record as JSON", async () => {
    const record = sampleRecord({ upstreamId: 'chatcmpl-1', attribution: { environment: 'prod', sessionId: 'session-9' } });

    await sinkFor().send(record);

    expect(sqs.messages).toEqual([{ queueUrl: QUEUE_URL, body: JSON.stringify(record) }]);
    expect(usageRecordSchema.parse(JSON.parse(sqs.messages[0]?.body ?? ''))).toEqual(record);
  });

  it('sends each record as its own message', async () => {
    const records = [sampleRecord(), sampleRecord(), sampleRecord()];
    const sink = sinkFor();

    for (const record of records) await sink.send(record);

    expect(sqs.messages.map((message) => message.body)).toEqual(records.map((record) => JSON.stringify(record)));
  });

  it('is refused, without retrying, when its signature is wrong: a secret that does not match, or another region', async () => {
    const refusedBefore = sqs.refusals;
    await expect(sinkFor({ credentials: { ...ROLE, secretAccessKey: 'not-the-secret' } }).send(sampleRecord())).rejects.toThrow(/403 InvalidSignatureException/);
    await expect(sinkFor({ region: 'eu-west-1' }).send(sampleRecord())).rejects.toThrow(/403 InvalidSignatureException/);
    expect(sqs.refusals - refusedBefore).toBe(2);
    expect(sqs.messages).toHaveLength(0);
  });

  it('tries again after throttling or a server error, backing off more after throttling, and the record arrives once', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0.999);
    sqs.refuseNext(1, 'InternalError', 500);
    sqs.refuseNext(1, 'RequestThrottled');

    await sinkFor().send(sampleRecord({ requestId: 'req-retried' }));

    expect(sqs.messages.map((message) => (JSON.parse(message.body) as { requestId: string }).requestId)).toEqual(['req-retried']);
    // Full jitter under a ceiling that doubles: 100 ms after the first failure, 2 × 500 ms after throttling.
    expect(delays.map(Math.round)).toEqual([100, 999]);
  });

  it('tries again on a 429, whatever SQS calls it', async () => {
    sqs.refuseNext(1, 'SomethingNew', 429);

    await sinkFor().send(sampleRecord());

    expect(sqs.messages).toHaveLength(1);
    expect(delays).toHaveLength(1);
  });

  it('sends again when the acknowledgement does not match the body or holds no result (the writer keeps one copy)', async () => {
    const record = sampleRecord();
    sqs.acknowledgeNextWrongly('wrong-md5');
    await sinkFor().send(record);
    expect(sqs.messages.map((message) => message.body)).toEqual([JSON.stringify(record), JSON.stringify(record)]);

    sqs.messages.length = 0;
    sqs.acknowledgeNextWrongly('no-result');
    await sinkFor().send(record);
    expect(sqs.messages).toHaveLength(2);
  });

  it("sends to the queue URL's own host when no endpoint is set, as the SDK does", async () => {
    const queueUrl = `${sqs.endpoint}/123456789012/gateway-usage`;
    const sink = new SqsUsageSink({ queueUrl, region: 'us-east-1' }, async () => ROLE, transport);

    await sink.send(sampleRecord());

    expect(sqs.messages.map((message) => message.queueUrl)).toEqual([queueUrl]);
  });

  it('gives a FIFO queue the record id as message group and deduplication id', async () => {
    const queueUrl = `${sqs.endpoint}/123456789012/gateway-usage.fifo`;
    const record = sampleRecord();

    await new SqsUsageSink({ queueUrl, region: 'us-east-1' }, async () => ROLE, transport).send(record);

    expect(sqs.messages).toEqual([{ queueUrl, body: JSON.stringify(record), messageGroupId: record.recordId, messageDeduplicationId: record.recordId }]);
  });

  it('rejects with what SQS said when it keeps refusing, so that the caller spills the record', async () => {
    sqs.refuseNext(3, 'ServiceUnavailable', 503);

    await expect(sinkFor().send(sampleRecord())).rejects.toThrow(/503 ServiceUnavailable/);
    expect(delays).toHaveLength(2);
    expect(sqs.messages).toHaveLength(0);
  });

  it('rejects at once on a refusal that another try would not change (a queue that does not exist)', async () => {
    sqs.refuseNext(1, 'QueueDoesNotExist');

    const refusal = sinkFor().send(sampleRecord());

    await expect(refusal).rejects.toBeInstanceOf(AwsServiceError);
    await expect(refusal).rejects.toThrow(/400 QueueDoesNotExist/);
    expect(delays).toHaveLength(0);
  });

  it('rejects when nothing answers at the queue endpoint, after its tries', async () => {
    const closed = await startFakeSqs();
    await closed.close();
    const sink = new SqsUsageSink({ queueUrl: QUEUE_URL, region: 'us-east-1', endpoint: closed.endpoint }, async () => ROLE, transport, { sleep: async (ms) => void delays.push(ms) });

    await expect(sink.send(sampleRecord())).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    expect(delays).toHaveLength(2);
  });

  it('gives up a try that is not answered in time and tries again, then rejects', async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const endpoint = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
      const sink = new SqsUsageSink({ queueUrl: QUEUE_URL, region: 'us-east-1', endpoint }, async () => ROLE, transport, { sleep: async (ms) => void delays.push(ms), attemptTimeoutMs: 50 });

      await expect(sink.send(sampleRecord())).rejects.toMatchObject({ name: expect.stringMatching(/^(AbortError|TimeoutError)$/) });
      expect(delays).toHaveLength(2);
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});

describe('regionOfQueueUrl', () => {
  it('reads the region from the queue URL, in its current and legacy forms', () => {
    expect(regionOfQueueUrl('https://sqs.eu-west-1.amazonaws.com/123456789012/usage')).toBe('eu-west-1');
    expect(regionOfQueueUrl('https://ap-southeast-2.queue.amazonaws.com/123456789012/usage')).toBe('ap-southeast-2');
    expect(regionOfQueueUrl('http://127.0.0.1:4566/000000000000/usage')).toBeUndefined();
  });
});
