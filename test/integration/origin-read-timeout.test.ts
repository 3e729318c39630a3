import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendJson, sseEvents, startFakeOpenAiUpstream, type FakeUpstream } from '../support/fake-openai-upstream.ts';
import { readFixture } from '../support/fixtures.ts';
import { createProjectWithKey, startTestGateway, type TestGateway } from '../support/test-gateway.ts';

/**
 * Behind CloudFront (a read timeout of 400 ms here, heartbeats every 50 ms): a stream whose upstream keeps
 * silent is committed before CloudFront would give up, and heartbeats keep it alive; the upstream below
 * answers only once the client has seen the committed status and two heartbeats, so a gateway that waited
 * for the upstream's head would never finish these tests.
 */
let gateway: TestGateway;
let upstream: FakeUpstream;
let key: string;
let clientSawHeartbeats: () => void = () => {};
let heartbeatsSeen = new Promise<void>((resolve) => (clientSawHeartbeats = resolve));

const streamed = sseEvents(readFixture('openai-chat/chat-stream-text-include-usage.sse'));

beforeAll(async () => {
  upstream = await startFakeOpenAiUpstream();
  gateway = await startTestGateway({ GATEWAY_ORIGIN_READ_TIMEOUT_MS: '400', GATEWAY_HEARTBEAT_INTERVAL_MS: '50' });
  key = await createProjectWithKey(gateway, { projectId: 'thinker', baseUrl: upstream.baseUrl, models: [{ slug: 'openai/gpt-4o-mini' }] });
});

afterAll(async () => {
  await gateway.close();
  await upstream.close();
});

function resetHeartbeatSignal() {
  heartbeatsSeen = new Promise<void>((resolve) => (clientSawHeartbeats = resolve));
}

/** Answers only after the client saw the committed status and heartbeats. */
function afterHeartbeats(answer: (response: ServerResponse) => void) {
  upstream.answerWith(async (_request, response) => {
    await heartbeatsSeen;
    answer(response);
  });
}

/** Reads a stream chunk by chunk, telling the upstream once two heartbeats came. */
async function readStream(response: Response): Promise<string> {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text;
    text += decoder.decode(value, { stream: true });
    if ((text.match(/: keep-alive\n\n/g) ?? []).length >= 2) clientSawHeartbeats();
  }
}

const ask = (stream: boolean) =>
  fetch(`${gateway.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'x-request-id': `think-${Math.random().toString(36).slice(2)}` },
    body: JSON.stringify({ model: 'openai/gpt-4o-mini', stream, messages: [{ role: 'user', content: 'think hard' }] }),
  });

describe('a stream whose provider thinks longer than CloudFront waits', () => {
  it('is committed with 200 and heartbeats before the upstream answers, then carries the whole answer', async () => {
    resetHeartbeatSignal();
    afterHeartbeats((response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.end(streamed.join(''));
    });
    const response = await ask(true);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const text = await readStream(response);
    expect(text.startsWith(': keep-alive\n\n')).toBe(true);
    expect(text).toContain('data: [DONE]');
    expect(text.replace(/: keep-alive\n\n/g, '')).toBe(streamed.filter((event) => !event.includes('"usage":{')).join(''));
  });

  it('reports a failure that comes after the commitment in-band, in the chat stream error format', async () => {
    resetHeartbeatSignal();
    afterHeartbeats((response) => sendJson(response, 503, { error: { message: 'the model fell over', type: 'server_error' } }));
    const response = await ask(true);
    expect(response.status).toBe(200);
    const text = await readStream(response);
    const errorFrame = text.split('\n\n').find((frame) => frame.startsWith('data: {"error"'));
    expect(JSON.parse((errorFrame ?? '').slice(6))).toMatchObject({ error: { code: 'upstream_error', type: 'upstream_error' } });
  });

  it('keeps a fast refusal as a real HTTP status: nothing is committed while the upstream answers quickly', async () => {
    upstream.answerWith((_request, response) => sendJson(response, 400, JSON.parse(readFixture('openai-chat/chat-error-400-unsupported-parameter.json'))));
    const response = await ask(true);
    expect(response.status).toBe(400);
  });
});

describe('a JSON answer behind CloudFront', () => {
  it('gives up on a silent provider before the origin read timeout, with a 502 naming the time-out', async () => {
    upstream.answerWith(() => undefined);
    const response = await ask(false);
    expect(response.status).toBe(502);
    expect(await response.json()).toMatchObject({ error: { code: 'upstream_timeout' } });
  });
});
