import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAiUpstream, sendJson, type FakeUpstream } from '../support/fake-openai-upstream.ts';
import { readFixture } from '../support/fixtures.ts';
import { generationOf } from '../support/generation-lookup.ts';
import { createProjectWithKey, startTestGateway, type TestGateway } from '../support/test-gateway.ts';

let gateway: TestGateway;
let upstream: FakeUpstream;
let key: string;

const recorded = readFixture('other/openai-moderations.json');

beforeAll(async () => {
  upstream = await startFakeOpenAiUpstream();
  gateway = await startTestGateway();
  key = await createProjectWithKey(gateway, {
    projectId: 'safety',
    baseUrl: upstream.baseUrl,
    models: [
      { slug: 'openai/text-moderation-007', kind: 'moderation', requestMicros: 1 },
      { slug: 'openai/text-embedding-3-small', kind: 'embedding' },
    ],
  });
});

afterAll(async () => {
  await gateway?.close();
  await upstream?.close();
});

describe('POST /v1/moderations through the openai SDK', () => {
  it('answers the recorded moderation and records the request at its price', async () => {
    upstream.answerWith((_request, response) => sendJson(response, 200, recorded));
    const client = gateway.openai(key, { defaultHeaders: { 'x-request-id': 'moderation-1' } });

    const answer = await client.moderations.create({ model: 'text-moderation-007', input: 'Have a great day!' });

    expect(answer).toEqual(JSON.parse(recorded));
    expect(upstream.received.at(-1)).toMatchObject({ path: '/v1/moderations', body: { model: 'text-moderation-007', input: 'Have a great day!' } });
    const record = await generationOf(gateway, key, 'moderation-1');
    // No usage reported: the input's tokens are estimated (free here), the request costs 1 micro-USD.
    expect(record).toMatchObject({ endpoint: 'moderations', model: 'openai/text-moderation-007', estimated: true, upstream_id: 'modr-C32SYHp4XLB0KRtDcKtdRbiP8kSTM', billed_units: { requests: 1 } });
    expect(record.total_cost).toBe(0.000001);
  });

  it('takes text and image parts', async () => {
    upstream.answerWith((_request, response) => sendJson(response, 200, recorded));
    const input = [
      { type: 'text' as const, text: 'look' },
      { type: 'image_url' as const, image_url: { url: 'https://example.com/cat.png' } },
    ];
    await gateway.openai(key).moderations.create({ model: 'openai/text-moderation-007', input });
    expect(upstream.received.at(-1)?.body.input).toEqual(input);
  });

  it('refuses an embedding model with 400 model_unsupported_for_endpoint', async () => {
    const refusal = await gateway
      .openai(key)
      .moderations.create({ model: 'openai/text-embedding-3-small', input: 'x' })
      .catch((error: unknown) => error);
    expect(refusal).toMatchObject({ status: 400, code: 'model_unsupported_for_endpoint' });
  });

  it("takes OpenAI's default, omni-moderation-latest, for a request that names no model, through the allowlist", async () => {
    const refusal = await gateway
      .openai(key)
      .moderations.create({ input: 'x' })
      .catch((error: unknown) => error);
    expect(refusal).toMatchObject({ status: 404, code: 'model_not_allowed' });

    await gateway.admin({ command: 'model.allow', projectId: 'safety', slug: 'openai/omni-moderation-latest', kind: 'moderation' });
    upstream.answerWith((_request, response) => sendJson(response, 200, recorded));
    await gateway.openai(key).moderations.create({ input: 'Have a great day!' });
    expect(upstream.received.at(-1)?.body).toMatchObject({ model: 'omni-moderation-latest', input: 'Have a great day!' });
  });
});
