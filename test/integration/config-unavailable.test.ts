import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/test-gateway.ts';

let gateway: TestGateway;

beforeAll(async () => {
  gateway = await startTestGateway();
});

afterAll(async () => {
  await gateway.close();
});

describe('configuration store outage', () => {
  it('answers 503 config_unavailable with Retry-After when the key cannot be looked up', async () => {
    await gateway.host.store.close();

    const error = await gateway
      .openai(`gw.${'B'.repeat(43)}`)
      .chat.completions.create({ model: 'mock/echo', messages: [{ role: 'user', content: 'hi' }] })
      .then(() => undefined, (thrown: unknown) => thrown);

    expect(error).toBeInstanceOf(OpenAI.APIError);
    const apiError = error as InstanceType<typeof OpenAI.APIError>;
    expect(apiError.status).toBe(503);
    expect(apiError.code).toBe('config_unavailable');
    expect(apiError.headers?.get('retry-after')).toBe('1');
  });
});
