import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAiUpstream, sendJson, sendSse, type FakeUpstream } from '../support/fake-openai-upstream.ts';
import { readFixture } from '../support/fixtures.ts';
import { generationOf } from '../support/generation-lookup.ts';
import { createProjectWithKey, startTestGateway, type TestGateway } from '../support/test-gateway.ts';

let gateway: TestGateway;
let upstream: FakeUpstream;
let key: string;
let injectingKey: string;

const completion = readFixture('other/openai-completion-text.json');
// The recorded chunks, replayed as the provider sent them: one `data:` event each, then [DONE].
const streamEvents = [...readFixture('other/openai-completion-text.chunks.txt').split('\n').map((line) => `data: ${line}\n\n`), 'data: [DONE]\n\n'];
const models = [{ slug: 'openai/gpt-3.5-turbo-instruct', inputMicrosPer1k: 1500, outputMicrosPer1k: 2000 }];

beforeAll(async () => {
  upstream = await startFakeOpenAiUpstream();
  gateway = await startTestGateway();
  key = await createProjectWithKey(gateway, { projectId: 'legacy', baseUrl: upstream.baseUrl, models });
  injectingKey = await createProjectWithKey(gateway, { projectId: 'legacy-cost', baseUrl: upstream.baseUrl, models });
  await gateway.admin({ command: 'project.update', projectId: 'legacy-cost', usageInjection: true });
});

afterAll(async () => {
  await gateway?.close();
  await upstream?.close();
});

describe('POST /v1/completions through the openai SDK', () => {
  it('answers a completion as the provider sent it and meters its usage', async () => {
    upstream.answerWith((_request, response) => sendJson(response, 200, completion));
    const client = gateway.openai(key, { defaultHeaders: { 'x-request-id': 'legacy-json' } });

    const answer = await client.completions.create({ model: 'gpt-3.5-turbo-instruct', prompt: 'Invent a new holiday and describe its traditions.', max_tokens: 16 });

    expect(answer).toEqual(JSON.parse(completion));
    expect(upstream.received.at(-1)).toMatchObject({ path: '/v1/completions', body: { model: 'gpt-3.5-turbo-instruct', max_tokens: 16 } });
    const record = await generationOf(gateway, key, 'legacy-json');
    expect(record).toMatchObject({ endpoint: 'completions', tokens_prompt: 14, tokens_completion: 16, estimated: false, streamed: false });
    expect(record.total_cost).toBeCloseTo((14 * 1500 + 16 * 2000) / 1e9, 12);
  });

  it('streams the chunks through, asking the provider for usage and hiding it from a client that did not ask', async () => {
    upstream.answerWith((_request, response) => sendSse(response, streamEvents, 0));
    const client = gateway.openai(key, { defaultHeaders: { 'x-request-id': 'legacy-stream' } });

    const stream = await client.completions.create({ model: 'openai/gpt-3.5-turbo-instruct', prompt: 'Invent a new holiday', stream: true });
    let text = '';
    const usages: unknown[] = [];
    for await (const chunk of stream) {
      text += chunk.choices[0]?.text ?? '';
      if (chunk.usage) usages.push(chunk.usage);
    }

    expect(text).toBe('The holiday is called "Gratitude Day" and it is a day dedicated to');
    expect(usages).toEqual([]);
    expect(upstream.received.at(-1)?.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    const record = await generationOf(gateway, key, 'legacy-stream');
    expect(record).toMatchObject({ tokens_prompt: 14, tokens_completion: 16, estimated: false, streamed: true, status: 'completed', finish_reason: 'length' });
  });

  it('shows the usage chunk with its cost when the project injects usage cost', async () => {
    upstream.answerWith((_request, response) => sendSse(response, streamEvents, 0));
    const stream = await gateway.openai(injectingKey).completions.create({ model: 'openai/gpt-3.5-turbo-instruct', prompt: 'x', stream: true });
    const usages: Array<Record<string, unknown>> = [];
    for await (const chunk of stream) if (chunk.usage) usages.push(chunk.usage as unknown as Record<string, unknown>);
    // The detail counts the recorded stream left out are added, as for chat (interface spec 2.3).
    expect(usages).toEqual([
      {
        prompt_tokens: 14,
        completion_tokens: 16,
        total_tokens: 30,
        prompt_tokens_details: { cached_tokens: 0 },
        completion_tokens_details: { reasoning_tokens: 0 },
        cost: (14 * 1500 + 16 * 2000) / 1e9,
      },
    ]);
  });

  it('streams to the SDK, as one chunk, the JSON answer of a provider that ignored `stream: true`, billed by its usage', async () => {
    upstream.answerWith((_request, response) => sendJson(response, 200, completion));
    const client = gateway.openai(key, { defaultHeaders: { 'x-request-id': 'legacy-stream-ignored' } });

    const stream = await client.completions.create({ model: 'openai/gpt-3.5-turbo-instruct', prompt: 'x', stream: true, stream_options: { include_usage: true } });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);

    const recorded = JSON.parse(completion) as { id: string; model: string; choices: unknown[]; usage: Record<string, number> };
    expect(chunks).toEqual([
      { id: recorded.id, object: 'text_completion', created: expect.any(Number), model: recorded.model, choices: recorded.choices },
      { id: recorded.id, object: 'text_completion', created: expect.any(Number), model: recorded.model, choices: [], usage: { ...recorded.usage, prompt_tokens_details: { cached_tokens: 0 }, completion_tokens_details: { reasoning_tokens: 0 } } },
    ]);
    const record = await generationOf(gateway, key, 'legacy-stream-ignored');
    expect(record).toMatchObject({ tokens_prompt: 14, tokens_completion: 16, estimated: false, streamed: true, status: 'completed' });
  });

  it('ends the stream made of such an answer with [DONE], its usage shown only to a client that asked for it', async () => {
    upstream.answerWith((_request, response) => sendJson(response, 200, completion));
    const response = await fetch(`${gateway.url}/v1/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'openai/gpt-3.5-turbo-instruct', prompt: 'x', stream: true }),
    });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const frames = (await response.text()).split('\n\n').filter(Boolean);
    expect(frames).toHaveLength(2);
    expect(JSON.parse(frames[0]?.replace(/^data: /, '') ?? '')).toMatchObject({ object: 'text_completion', choices: [{ finish_reason: 'length' }] });
    expect(frames[1]).toBe('data: [DONE]');
  });

  it("shows such an answer's usage chunk with its cost when the project injects usage cost", async () => {
    upstream.answerWith((_request, response) => sendJson(response, 200, completion));
    const stream = await gateway.openai(injectingKey).completions.create({ model: 'openai/gpt-3.5-turbo-instruct', prompt: 'x', stream: true });
    const usages: unknown[] = [];
    for await (const chunk of stream) if (chunk.usage) usages.push(chunk.usage);
    expect(usages).toEqual([expect.objectContaining({ prompt_tokens: 14, completion_tokens: 16, cost: (14 * 1500 + 16 * 2000) / 1e9 })]);
  });

  it('relays the usage chunk as sent to a client that asked for it', async () => {
    upstream.answerWith((_request, response) => sendSse(response, streamEvents, 0));
    const response = await fetch(`${gateway.url}/v1/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'openai/gpt-3.5-turbo-instruct', prompt: 'x', stream: true, stream_options: { include_usage: true } }),
    });
    expect(await response.text()).toBe(streamEvents.join(''));
  });
});
