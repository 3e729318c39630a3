import { afterEach, describe, expect, it } from 'vitest';
import { loadRuntimeConfig } from '../../shared/config/runtime-config.ts';
import { createGatewayServices } from '../../shared/wiring/create-gateway-services.ts';
import { startFakeSqs, type FakeSqs } from '../support/fake-sqs.ts';
import { sampleRecord } from '../support/sample-usage-record.ts';

const QUEUE_URL = 'https://sqs.us-east-1.amazonaws.com/123456789012/gateway-usage';
const CREDENTIALS = { accessKeyId: 'AKIAWIRINGTEST000001', secretAccessKey: 'wiring-test-secret' };
// Nothing listens here: a record sent to it would be refused, and the test would see the send fail.
const UNUSED_ENDPOINT = 'http://127.0.0.1:9';

const started: FakeSqs[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((sqs) => sqs.close()));
});

async function fakeSqs(): Promise<FakeSqs> {
  const sqs = await startFakeSqs({ signedWith: { region: 'us-east-1', credentials: { [CREDENTIALS.accessKeyId]: { secretAccessKey: CREDENTIALS.secretAccessKey } } } });
  started.push(sqs);
  return sqs;
}

/** The usage sink the route groups get from this environment, signing with fixed credentials. */
function usageSinkFor(environment: Record<string, string>) {
  const config = loadRuntimeConfig({ GATEWAY_USAGE_QUEUE_URL: QUEUE_URL, AWS_REGION: 'us-east-1', ...environment });
  const reports = { spilled: () => undefined, unsent: () => undefined, malformedEvent: () => undefined };
  return createGatewayServices(config, reports, { awsCredentials: { credentials: async () => CREDENTIALS } }).usageSink;
}

describe('the usage queue endpoint the route groups send to', () => {
  it('is AWS_ENDPOINT_URL when no SQS-specific endpoint is set, as the AWS SDK resolves it', async () => {
    const sqs = await fakeSqs();
    const record = sampleRecord();

    await usageSinkFor({ AWS_ENDPOINT_URL: sqs.endpoint }).send(record);

    expect(sqs.messages.map((message) => [message.queueUrl, JSON.parse(message.body).recordId])).toEqual([[QUEUE_URL, record.recordId]]);
  });

  it('is AWS_ENDPOINT_URL_SQS when both are set: the service-specific variable wins', async () => {
    const sqs = await fakeSqs();

    await usageSinkFor({ AWS_ENDPOINT_URL_SQS: sqs.endpoint, AWS_ENDPOINT_URL: UNUSED_ENDPOINT }).send(sampleRecord());

    expect(sqs.messages).toHaveLength(1);
  });
});
