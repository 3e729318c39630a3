import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAiUpstream, sendJson, sendSse, sseEvents, type FakeUpstream } from '../support/fake-openai-upstream.ts';
import { readFixture } from '../support/fixtures.ts';
import { createProjectWithKey, startTestGateway, type TestGateway } from '../support/test-gateway.ts';

const UPSTREAM_KEY = 'sk-upstream-secret-0123456789';
let gateway: TestGateway;
let upstream: FakeUpstream;
let key: string;

beforeAll(async () => {
  upstream = await startFakeOpenAiUpstream();
  gateway = await startTestGateway();
  key = await createProjectWithKey(gateway, {
    projectId: 'acme',
    baseUrl: upstream.baseUrl,
    apiKey: UPSTREAM_KEY,
    models: [{ slug: 'openai/gpt-4o-mini', alias: 'fast' }, { slug: 'openai/gpt-4.1-nano' }],
  });
});

afterAll(async () => {
  await gateway.close();
  await upstream.close();
});

describe('POST /v1/chat/completions without streaming', () => {
  it('returns the upstream completion to the openai SDK unchanged', async () => {
    const recorded = readFixture('openai-chat/chat-nonstream-text-usage-details.json');
    upstream.answerWith((_request, response) => sendJson(response, 200, recorded));

    const completion = await gateway.openai(key).chat.completions.create({
      model: 'openai/gpt-4.1-nano',
      messages: [{ role: 'user', content: 'Hello' }],
    });

    expect(completion).toEqual(JSON.parse(recorded));
  });

  it('sends the upstream its own model id, the project provider key and no routing-only fields', async () => {
    upstream.answerWith((_request, response) => sendJson(response, 200, readFixture('openai-chat/chat-nonstream-tool-calls.json')));
    upstream.received.length = 0;

    await gateway.openai(key).chat.completions.create({
      model: 'openai/gpt-4o-mini',
      messages: [{ role: 'user', content: 'multiply 3 by 4' }],
      temperature: 0.2,
      // @ts-expect-error routing-only fields are gateway extensions the SDK does not know
      models: ['openai/gpt-4.1-nano'],
      route: 'fallback',
      provider: { order: ['openai'] },
    });

    const [seen] = upstream.received;
    expect(seen?.path).toBe('/v1/chat/completions');
    expect(seen?.headers.authorization).toBe(`Bearer ${UPSTREAM_KEY}`);
    expect(seen?.body).toEqual({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'multiply 3 by 4' }], temperature: 0.2 });
  });

  it.each([
    ['provider-prefixed slug', 'openai/gpt-4o-mini'],
    ['bare model id', 'gpt-4o-mini'],
    ['project alias', 'fast'],
  ])('accepts the model by its %s', async (_how, model) => {
    upstream.answerWith((_request, response) => sendJson(response, 200, readFixture('openai-chat/chat-nonstream-tool-calls.json')));
    upstream.received.length = 0;

    const { data, response } = await gateway
      .openai(key)
      .chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] })
      .withResponse();

    expect(data.choices[0]?.finish_reason).toBe('tool_calls');
    expect(upstream.received[0]?.body.model).toBe('gpt-4o-mini');
    expect(response.headers.get('x-gateway-model')).toBe('openai/gpt-4o-mini');
  });

  it('echoes the client X-Request-ID, and generates one when none was sent', async () => {
    upstream.answerWith((_request, response) => sendJson(response, 200, readFixture('openai-chat/chat-nonstream-tool-calls.json')));
    const client = gateway.openai(key);

    const withId = await client.chat.completions
      .create({ model: 'fast', messages: [{ role: 'user', content: 'hi' }] }, { headers: { 'X-Request-ID': 'client-id-42' } })
      .withResponse();
    const withoutId = await client.chat.completions.create({ model: 'fast', messages: [{ role: 'user', content: 'hi' }] }).withResponse();

    expect(withId.response.headers.get('x-request-id')).toBe('client-id-42');
    expect(withoutId.response.headers.get('x-request-id')).toMatch(/^gen-[0-9A-Za-z]{24}$/);
  });
});

describe('POST /v1/chat/completions with streaming', () => {
  it('passes a recorded tool-call stream through byte for byte, usage chunk included', async () => {
    const recorded = readFixture('openai-chat/chat-stream-tool-calls-include-usage.sse');
    upstream.answerWith((_request, response) => sendSse(response, sseEvents(recorded)));

    const response = await fetch(`${gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'fast', stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'x' }] }),
    });

    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(await response.text()).toBe(recorded);
  });

  it('assembles tool-call deltas through the openai SDK stream', async () => {
    upstream.answerWith((_request, response) => sendSse(response, sseEvents(readFixture('openai-chat/chat-stream-tool-calls-include-usage.sse'))));

    const stream = await gateway.openai(key).chat.completions.create({
      model: 'openai/gpt-4o-mini',
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: 'user', content: 'multiply' }],
    });
    let name = '';
    let args = '';
    let finish: string | null = null;
    let totalTokens: number | undefined;
    for await (const chunk of stream) {
      const call = chunk.choices[0]?.delta.tool_calls?.[0];
      name += call?.function?.name ?? '';
      args += call?.function?.arguments ?? '';
      finish = chunk.choices[0]?.finish_reason ?? finish;
      totalTokens = chunk.usage?.total_tokens ?? totalTokens;
    }

    expect(name).toBe('multiply');
    expect(JSON.parse(args)).toEqual({ a: 1231, b: 2331 });
    expect(finish).toBe('tool_calls');
    expect(totalTokens).toBeGreaterThan(0);
  });

  it('delivers each event as the upstream sends it instead of buffering the stream', async () => {
    let releaseRest: () => void = () => {};
    const rest = new Promise<void>((resolve) => (releaseRest = resolve));
    upstream.answerWith(async (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write(`data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o-mini', choices: [{ index: 0, delta: { content: 'first' }, finish_reason: null }] })}\n\n`);
      await rest;
      response.end('data: [DONE]\n\n');
    });

    const stream = await gateway.openai(key).chat.completions.create({ model: 'fast', stream: true, messages: [{ role: 'user', content: 'x' }] });
    const iterator = stream[Symbol.asyncIterator]();
    const first = await iterator.next();
    // The upstream has not finished: the first event can only have arrived if nothing buffered it.
    expect(first.value?.choices[0]?.delta.content).toBe('first');
    releaseRest();
    expect((await iterator.next()).done).toBe(true);
  });

  it('ends with an SSE error event when the upstream breaks off mid-stream', async () => {
    upstream.answerWith((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write(`data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o-mini', choices: [{ index: 0, delta: { content: 'partial' }, finish_reason: null }] })}\n\n`);
      setTimeout(() => response.socket?.destroy(), 20);
    });

    const stream = await gateway.openai(key).chat.completions.create({ model: 'fast', stream: true, messages: [{ role: 'user', content: 'x' }] });
    const received: string[] = [];
    const consume = async () => {
      for await (const chunk of stream) received.push(chunk.choices[0]?.delta.content ?? '');
    };

    await expect(consume()).rejects.toThrow(/Provider "openai" broke off the stream/);
    expect(received).toEqual(['partial']);
  });
});

describe('POST /v1/chat/completions with streaming, to an upstream that ignores `stream: true`', () => {
  const generation = async (id: string) => {
    const lookup = () => fetch(`${gateway.url}/v1/generation?id=${id}`, { headers: { authorization: `Bearer ${key}` } });
    await expect.poll(async () => (await lookup()).status, { timeout: 2_000, interval: 50 }).toBe(200);
    return (await (await lookup()).json()) as Record<string, unknown>;
  };

  it('streams its complete JSON answer to the openai SDK, and bills it', async () => {
    const recorded = readFixture('openai-chat/chat-nonstream-text-usage-details.json');
    upstream.answerWith((_request, response) => sendJson(response, 200, recorded));

    const stream = await gateway
      .openai(key)
      .chat.completions.create({ model: 'fast', stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'x' }] }, { headers: { 'x-request-id': 'ignored-stream' } });
    let text = '';
    let finish: string | null = null;
    let completionTokens: number | undefined;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      finish = chunk.choices[0]?.finish_reason ?? finish;
      completionTokens = chunk.usage?.completion_tokens ?? completionTokens;
    }

    const completion = JSON.parse(recorded) as { choices: Array<{ message: { content: string } }>; usage: { completion_tokens: number } };
    expect(text).toBe(completion.choices[0]?.message.content);
    expect(finish).toBe('stop');
    expect(completionTokens).toBe(completion.usage.completion_tokens);
    expect(await generation('ignored-stream')).toMatchObject({ status: 'completed', streamed: true, tokens_completion: completion.usage.completion_tokens });
  });

  it('fails the openai SDK with 502 upstream_invalid_response, not an empty stream, when the upstream answers an HTML page', async () => {
    upstream.answerWith((_request, response) => void response.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>502 Bad Gateway</body></html>'));

    const error = await gateway
      .openai(key)
      .chat.completions.create({ model: 'fast', stream: true, messages: [{ role: 'user', content: 'x' }] }, { headers: { 'x-request-id': 'html-stream' } })
      .then(() => undefined, (thrown: unknown) => thrown);

    expect(error).toMatchObject({ status: 502, code: 'upstream_invalid_response' });
    expect(await generation('html-stream')).toMatchObject({ status: 'failed', error_code: 'upstream_invalid_response', tokens_completion: 0 });
  });
});

describe('GET /v1/models', () => {
  it('lists exactly the project allowlist with exact decimal per-token prices', async () => {
    await gateway.admin({ command: 'model.allow', projectId: 'acme', slug: 'openai/gpt-4o-mini', alias: 'fast', inputMicrosPer1k: 150, outputMicrosPer1k: 600 });
    await gateway.admin({ command: 'ratecard.set', slug: 'openai/gpt-4.1-nano', inputMicrosPer1k: 100, outputMicrosPer1k: 400 });

    const page = await gateway.openai(key).models.list();
    const byId = Object.fromEntries(page.data.map((entry) => [entry.id, entry as unknown as Record<string, unknown>]));

    expect(Object.keys(byId).sort()).toEqual(['openai/gpt-4.1-nano', 'openai/gpt-4o-mini']);
    expect(byId['openai/gpt-4o-mini']).toMatchObject({
      canonical_slug: 'openai/gpt-4o-mini',
      pricing: { prompt: '0.00000015', completion: '0.0000006', request: '0' },
      // A model of the known table reads images too, as OpenRouter lists it.
      architecture: { modality: 'text+image->text', input_modalities: ['text', 'image'], output_modalities: ['text'] },
    });
    expect(byId['openai/gpt-4.1-nano']).toMatchObject({ pricing: { prompt: '0.0000001', completion: '0.0000004' } });
  });

  it('shows a Claude Code client only the claude and anthropic models, with its picker fields', async () => {
    const projectKey = await createProjectWithKey(gateway, {
      projectId: 'agents',
      baseUrl: upstream.baseUrl,
      models: [{ slug: 'openrouter/anthropic/claude-sonnet-4.5' }, { slug: 'openrouter/openai/gpt-4o-mini' }],
      provider: 'openrouter',
    });

    const response = await fetch(`${gateway.url}/v1/models?limit=1000`, {
      headers: { authorization: `Bearer ${projectKey}`, 'anthropic-version': '2023-06-01', 'user-agent': 'claude-cli/2.1.130 (external, cli)' },
    });
    const body = (await response.json()) as { data: Array<Record<string, unknown>> };

    expect(body.data.map((entry) => entry.id)).toEqual(['openrouter/anthropic/claude-sonnet-4.5']);
    expect(body.data[0]).toMatchObject({ type: 'model', display_name: 'anthropic/claude-sonnet-4.5' });
    expect(body.data[0]?.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  });
});
