import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startFakeOpenAiUpstream, type FakeUpstream } from '../support/fake-openai-upstream.ts';
import { generationOf } from '../support/generation-lookup.ts';
import { createProjectWithKey, startTestGateway, type TestGateway } from '../support/test-gateway.ts';

/**
 * Speech audio is relayed as the provider makes it: a provider that sends its head and some audio, then
 * nothing, is let go once silent longer than the first-byte time-out (500 ms here), as a chat stream is,
 * and the request is recorded failed, instead of holding the client (and the invocation) until the deadline.
 */
let gateway: TestGateway;
let upstream: FakeUpstream;
let key: string;

beforeAll(async () => {
  upstream = await startFakeOpenAiUpstream();
  gateway = await startTestGateway({ GATEWAY_UPSTREAM_FIRST_BYTE_TIMEOUT_MS: '500' });
  key = await createProjectWithKey(gateway, { projectId: 'voices', baseUrl: upstream.baseUrl, models: [{ slug: 'openai/tts-1', kind: 'audio', characterMicrosPer1k: 15_000 }] });
});

afterAll(async () => {
  await gateway?.close();
  await upstream?.close();
});

describe('a speech provider that falls silent after its first audio', () => {
  it('fails the client body, lets the provider go and records the request failed with upstream_timeout', async () => {
    let letGo = false;
    upstream.answerWith((_request, response) => {
      response.on('close', () => void (letGo = true));
      response.writeHead(200, { 'content-type': 'audio/mpeg' });
      response.write(Buffer.alloc(2048, 0xff));
    });
    const client = gateway.openai(key, { defaultHeaders: { 'x-request-id': 'speech-silent' } });
    const answer = await client.audio.speech.create({ model: 'openai/tts-1', voice: 'alloy', input: 'Then silence.' });

    const failure = await answer.arrayBuffer().catch((thrown: unknown) => thrown);
    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).name).not.toBe('TimeoutError');
    await vi.waitFor(() => expect(letGo).toBe(true));
    const record = await generationOf(gateway, key, 'speech-silent');
    expect(record).toMatchObject({ status: 'failed', error_code: 'upstream_timeout', billed_units: { requests: 1, characters: 13 } });
  });
});
