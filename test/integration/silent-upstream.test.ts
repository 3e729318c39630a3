import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { apiError, chat, fallback, generationOf, startFailoverGateway, type FailoverGateway } from '../support/failover-gateway.ts';
import { streamEvents, type Behaviour } from '../support/scripted-upstream.ts';
import type { TestGateway } from '../support/test-gateway.ts';

let setup: FailoverGateway;
let gateway: TestGateway;
let key: string;
/** A project whose requests must end within 1.5 s. */
let hastyProjectKey: string;
/** Each upstream request as `<provider>:<model it received>`, across both upstreams, in order. */
const log: string[] = [];
/** Keyed like the log; unlisted models answer 'ok'. Each test uses its own model ids: cool-down is per process. */
let behaviours: Record<string, Behaviour> = {};

beforeAll(async () => {
  setup = await startFailoverGateway(log, () => behaviours);
  ({ gateway, key, hastyProjectKey } = setup);
});

afterAll(async () => {
  await setup.close();
});

beforeEach(() => {
  log.length = 0;
  behaviours = {};
});

const generation = (id: string, projectKey = key) => generationOf(gateway, id, projectKey);

describe('heartbeats', () => {
  const streamed = { ...chat('openai/m-beat'), stream: true };
  const expectedText = streamEvents
    .map((event) => event.slice('data: '.length).trim())
    .filter((data) => data !== '[DONE]')
    .map((data) => (JSON.parse(data) as { choices: Array<{ delta?: { content?: string } }> }).choices[0]?.delta?.content ?? '')
    .join('');

  it('sends SSE keep-alive comments while the upstream is silent', async () => {
    behaviours = { 'openai:m-beat': 'stream-pause' };
    const response = await fetch(`${gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      // With include_usage the relay forwards every upstream event unchanged.
      body: JSON.stringify({ ...streamed, stream_options: { include_usage: true } }),
    });
    const text = await response.text();

    expect(text.startsWith(streamEvents[0] ?? '')).toBe(true);
    expect(text.match(/^: keep-alive\n\n/gm)?.length ?? 0).toBeGreaterThanOrEqual(2);
    expect(text.replace(/^: keep-alive\n\n/gm, '')).toBe(streamEvents.join(''));
  });

  it('keeps the SDK reading the stream correctly across keep-alive comments', async () => {
    behaviours = { 'openai:m-beat': 'stream-pause' };
    const stream = await gateway.openai(key).chat.completions.create(streamed as OpenAI.ChatCompletionCreateParamsStreaming);
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';

    expect(expectedText.length).toBeGreaterThan(0);
    expect(text).toBe(expectedText);
  });
});

describe('an upstream that sends its head, then stops', () => {
  it('answers a JSON request 502 upstream_timeout at the request deadline, and records it as failed', async () => {
    behaviours = { 'openai:m-stall': 'stall' };
    const error = await apiError(gateway.openai(hastyProjectKey).chat.completions.create(chat('openai/m-stall', fallback), { headers: { 'x-request-id': 'fo-stall' } }));

    expect(error.status).toBe(502);
    expect(error.code).toBe('upstream_timeout');
    expect(await generation('fo-stall', hastyProjectKey)).toMatchObject({ status: 'failed', error_code: 'upstream_timeout', fallback_attempts: 0 });
  });

  it('ends a stream silent past the first-byte time-out with an error event, and records it as failed', async () => {
    behaviours = { 'openai:m-stream-stall': 'stream-stall' };
    const stream = await gateway.openai(hastyProjectKey).chat.completions.create({ ...chat('openai/m-stream-stall'), stream: true }, { headers: { 'x-request-id': 'fo-stream-stall' } });
    const failure = await (async () => {
      for await (const _chunk of stream);
    })().then(() => undefined, (thrown: unknown) => thrown);

    expect(failure).toBeInstanceOf(OpenAI.APIError);
    expect((failure as Error).message).toMatch(/Provider "openai" sent nothing for 800 ms/);
    expect(await generation('fo-stream-stall', hastyProjectKey)).toMatchObject({ status: 'failed', error_code: 'upstream_timeout' });
  });
});
