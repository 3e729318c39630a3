import { DynamoDBClient, ProvisionedThroughputExceededException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { DynamoProjectBalance } from '../../shared/adapters/aws/dynamo-project-balance.ts';
import { DynamoRateLimiter } from '../../shared/adapters/aws/dynamo-rate-limiter.ts';
import { chatCompletionsEndpoint } from '../../shared/endpoints/chat-completions.ts';
import { createOpenAiRouteGroup } from '../../shared/endpoints/openai-route-group.ts';
import type { GatewayRequest } from '../../shared/http/gateway-http.ts';
import { runGeneration } from '../../shared/pipeline/run-generation.ts';
import { createFakeGateway, FAKE_KEY, fakeProvider } from '../support/fake-gateway-services.ts';
import { readFixture } from '../support/fixtures.ts';
import { documentsOverSdk } from '../support/sdk-documents.ts';

/** Faults of the gateway's own dependencies: the right status, nothing leaked, metering intact. */
const dynamo = mockClient(DynamoDBDocumentClient);
afterEach(() => dynamo.reset());

const throttled = () => new ProvisionedThroughputExceededException({ message: 'Rate of requests exceeds the allowed throughput.', $metadata: {} });
const ask = (body: Record<string, unknown> = { model: 'openai/gpt-4o-mini', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }): GatewayRequest => ({
  method: 'POST',
  path: '/v1/chat/completions',
  query: new URLSearchParams(),
  headers: { authorization: `Bearer ${FAKE_KEY}` },
  body: Buffer.from(JSON.stringify(body)),
  sourceIp: '203.0.113.1',
});
const documents = () => documentsOverSdk(DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' })));

describe('DynamoDB throttling', () => {
  it('on the balance reservation: 503 with Retry-After, no upstream call, the rate-limit charges given back', async () => {
    let upstreamCalls = 0;
    const fake = createFakeGateway({
      providers: [fakeProvider('openai', ['openai-chat'])],
      models: [{ slug: 'openai/gpt-4o-mini' }],
      fetch: async () => (upstreamCalls++, new Response(readFixture('openai-chat/chat-nonstream-text-usage-details.json'))),
      rates: [{ slug: 'openai/gpt-4o-mini', inputPriceMicrosPer1k: 150, outputPriceMicrosPer1k: 600 }],
      balanceNanos: 1_000_000,
    });
    const adjustments: number[] = [];
    fake.services.balances = new DynamoProjectBalance(documents(), 'projects');
    fake.services.rateLimiter = { acquire: async (charges) => ({ allowed: true, counts: charges.map((charge) => charge.amount) }), adjust: async (_key, amount) => void adjustments.push(amount) };
    const config = await fake.services.projects.loadProjectConfig('acme');
    if (config) config.project.rpm = 10;
    dynamo.on(UpdateCommand).rejects(throttled());

    const response = await createOpenAiRouteGroup(fake.services)(ask());
    expect(response.status).toBe(503);
    expect(response.headers['retry-after']).toBe('1');
    expect(JSON.parse(String(response.body))).toMatchObject({ error: { code: 'config_unavailable' } });
    expect(upstreamCalls).toBe(0);
    expect(adjustments).toEqual([-1]);
    expect(fake.records).toHaveLength(0);
  });

  it('on the rate-limit counters: 503, and the request never reaches the upstream', async () => {
    let upstreamCalls = 0;
    const fake = createFakeGateway({
      providers: [fakeProvider('openai', ['openai-chat'])],
      models: [{ slug: 'openai/gpt-4o-mini' }],
      fetch: async () => (upstreamCalls++, new Response('{}')),
    });
    fake.services.rateLimiter = new DynamoRateLimiter(documents(), 'counters');
    const config = await fake.services.projects.loadProjectConfig('acme');
    if (config) config.project.rpm = 10;
    dynamo.on(UpdateCommand).rejects(throttled());

    const response = await createOpenAiRouteGroup(fake.services)(ask());
    expect(response.status).toBe(503);
    expect(upstreamCalls).toBe(0);
  });

  it('on the token correction after the answer: the answer stands and its record is handed over', async () => {
    const fake = createFakeGateway({
      providers: [fakeProvider('openai', ['openai-chat'])],
      models: [{ slug: 'openai/gpt-4o-mini' }],
      fetch: async () => new Response(readFixture('openai-chat/chat-nonstream-text-usage-details.json')),
    });
    let acquired = false;
    fake.services.rateLimiter = {
      acquire: async (charges) => ((acquired = true), { allowed: true, counts: charges.map((charge) => charge.amount) }),
      adjust: async () => {
        throw throttled();
      },
    };
    const config = await fake.services.projects.loadProjectConfig('acme');
    if (config) config.project.tpm = 100_000;

    const response = await runGeneration(chatCompletionsEndpoint, ask(), fake.services, { requestId: 'gen-throttled', receivedAt: Date.now() });
    expect(acquired).toBe(true);
    expect(response.status).toBe(200);
    expect(fake.records).toHaveLength(1);
    expect(fake.records[0]).toMatchObject({ status: 'completed', promptTokens: 16 });
  });
});

describe('an upstream answering garbage', () => {
  it('with a 200 and an HTML page: 502 upstream_invalid_response, one failed record with the prompt estimated', async () => {
    const fake = createFakeGateway({
      providers: [fakeProvider('openai', ['openai-chat'])],
      models: [{ slug: 'openai/gpt-4o-mini' }],
      fetch: async () => new Response('<html><body>502 Bad Gateway</body></html>', { headers: { 'content-type': 'text/html' } }),
    });
    await expect(runGeneration(chatCompletionsEndpoint, ask(), fake.services, { requestId: 'gen-garbage', receivedAt: Date.now() })).rejects.toMatchObject({ status: 502, code: 'upstream_invalid_response' });
    expect(fake.records).toHaveLength(1);
    expect(fake.records[0]).toMatchObject({ status: 'failed', errorCode: 'upstream_invalid_response', estimated: true });
    expect(fake.records[0]?.promptTokens).toBeGreaterThan(0);
  });
});
