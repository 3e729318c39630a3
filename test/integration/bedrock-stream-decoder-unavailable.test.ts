import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sendEventStream, startFakeBedrockRuntime, type FakeBedrockRuntime } from '../support/fake-bedrock-runtime.ts';
import { startTestGateway, type TestGateway } from '../support/test-gateway.ts';

// The event-stream codec loads with the first Bedrock stream; here it cannot be made.
vi.mock('@smithy/eventstream-codec', () => ({
  EventStreamCodec: class {
    constructor() {
      throw new Error('the event-stream codec could not be loaded');
    }
  },
}));

const NOVA = 'amazon.nova-pro-v1:0';
const API_KEY = 'bedrock-api-key-0123456789';
let bedrock: FakeBedrockRuntime;
let gateway: TestGateway;
let key: string;

beforeAll(async () => {
  bedrock = await startFakeBedrockRuntime({ region: 'us-east-1', credentials: {}, apiKeys: [API_KEY] });
  gateway = await startTestGateway();
  await gateway.admin({ command: 'project.create', projectId: 'aws' });
  await gateway.admin({ command: 'provider.set', projectId: 'aws', provider: 'bedrock', protocol: 'bedrock', region: 'us-east-1', apiKey: API_KEY, baseUrl: bedrock.baseUrl });
  await gateway.admin({ command: 'model.allow', projectId: 'aws', slug: `bedrock/${NOVA}` });
  key = (await gateway.admin<{ key: string }>({ command: 'key.create', projectId: 'aws' })).key;
});

afterAll(async () => {
  await gateway?.close();
  await bedrock?.close();
});

describe('a Bedrock stream whose decoder cannot be made', () => {
  it('is an error in the client protocol, metered as failed with the prompt the provider accepted', async () => {
    bedrock.answerWith((_request, response) => sendEventStream(response, []));

    const response = await fetch(`${gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'x-request-id': 'bedrock-no-decoder' },
      body: JSON.stringify({ model: `bedrock/${NOVA}`, stream: true, messages: [{ role: 'user', content: 'Say hello' }] }),
    });

    expect(response.status).toBeGreaterThanOrEqual(500);
    expect(await response.json()).toMatchObject({ error: { message: expect.any(String), type: expect.any(String) } });
    const lookup = () => fetch(`${gateway.url}/v1/generation?id=bedrock-no-decoder`, { headers: { authorization: `Bearer ${key}` } });
    await expect.poll(async () => (await lookup()).status, { timeout: 2_000, interval: 50 }).toBe(200);
    const generation = (await (await lookup()).json()) as Record<string, unknown>;
    expect(generation).toMatchObject({ status: 'failed', streamed: true });
    expect(generation.tokens_prompt).toBeGreaterThan(0);
  });
});
