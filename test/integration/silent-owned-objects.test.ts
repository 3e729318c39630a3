import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sendJson, startFakeOpenAiUpstream, type FakeUpstream, type ReceivedRequest } from '../support/fake-openai-upstream.ts';
import { recordedResponsesAnswer } from '../support/fake-responses-upstream.ts';
import { startTestGateway, type TestGateway } from '../support/test-gateway.ts';

/**
 * A stored response streamed back and a video's bytes are relayed as the provider sends them: an upstream
 * that sends its head, then nothing, is let go once silent longer than the first-byte time-out (500 ms
 * here), as a generation's stream is, instead of holding the client's request for ever.
 */
let gateway: TestGateway;
let upstream: FakeUpstream;
let key: string;

const RESPONSE_ID = 'resp_08ddf351751647d60169fab1b8a7ac81a081b9e2400e87fb63';
const CREATED_EVENT = `event: response.created\ndata: {"type":"response.created","sequence_number":0,"response":{"id":"${RESPONSE_ID}","object":"response","status":"in_progress","output":[]}}\n\n`;
const MP4_HEAD = Buffer.from([0x00, 0x00, 0x00, 0x18, 0x66, 0x74, 0x79, 0x70]);
const VIDEO = { id: 'video_silent', object: 'video', model: 'sora-2', status: 'completed', progress: 100, created_at: 1_760_000_000, completed_at: 1_760_000_100, expires_at: null, error: null, prompt: 'p', seconds: '4', size: '720x1280' };

/** Whether the upstream's answer to the silent request was let go (its connection closed by the gateway). */
const letGo = { stream: false, video: false };

/** Sends its head and a first piece, then nothing; notes when the gateway closes the connection. */
function sendHeadThenStall(response: ServerResponse, contentType: string, first: string | Buffer, seen: keyof typeof letGo): void {
  response.on('close', () => void (letGo[seen] = true));
  response.writeHead(200, { 'content-type': contentType });
  response.write(first);
}

function provider(request: ReceivedRequest, response: ServerResponse): void | Promise<void> {
  if (request.path === `/v1/responses/${RESPONSE_ID}?stream=true`) return sendHeadThenStall(response, 'text/event-stream', CREATED_EVENT, 'stream');
  if (request.path.startsWith('/v1/videos')) {
    if (request.path.endsWith('/content')) return sendHeadThenStall(response, 'video/mp4', MP4_HEAD, 'video');
    return sendJson(response, 200, VIDEO);
  }
  return recordedResponsesAnswer()(request, response);
}

beforeAll(async () => {
  upstream = await startFakeOpenAiUpstream();
  upstream.answerWith(provider);
  gateway = await startTestGateway({ GATEWAY_UPSTREAM_FIRST_BYTE_TIMEOUT_MS: '500' });
  await gateway.admin({ command: 'project.create', projectId: 'studio' });
  await gateway.admin({ command: 'provider.set', projectId: 'studio', provider: 'openai', protocol: 'openai', baseUrl: upstream.baseUrl, apiKey: 'sk-upstream-silent-0123456789' });
  await gateway.admin({ command: 'model.allow', projectId: 'studio', slug: 'openai/gpt-5.5' });
  await gateway.admin({ command: 'model.allow', projectId: 'studio', slug: 'openai/sora-2', kind: 'video', videoSecondMicros: 100_000 });
  key = (await gateway.admin<{ key: string }>({ command: 'key.create', projectId: 'studio' })).key;
});

afterAll(async () => {
  await gateway?.close();
  await upstream?.close();
});

/** A GET through the gateway; a client that would otherwise wait for ever gives up after 10 s. */
const get = (path: string) => fetch(`${gateway.url}${path}`, { headers: { authorization: `Bearer ${key}` }, signal: AbortSignal.timeout(10_000) });

describe('an upstream that sends its head, then stops, for an object the gateway passes through', () => {
  it("ends a stored response's stream with OpenAI's error event and response.failed, and lets the upstream go", async () => {
    // The gateway knows the response once the usage record of the request that made it is written.
    await gateway.openai(key).responses.create({ model: 'openai/gpt-5.5', input: 'Reply with exactly: pong' });
    await gateway.host.drainUsage();

    const response = await get(`/v1/responses/${RESPONSE_ID}?stream=true`);
    expect(response.status).toBe(200);
    const text = await response.text();

    expect(text.startsWith(CREATED_EVENT)).toBe(true);
    const events = text.slice(CREATED_EVENT.length).split('\n\n').filter(Boolean);
    expect(events.map((event) => event.split('\n')[0])).toEqual(['event: error', 'event: response.failed']);
    expect(JSON.parse(events[0]?.split('\ndata: ')[1] ?? '')).toEqual({ type: 'error', code: 'upstream_timeout', message: 'Provider "openai" sent nothing for 500 ms.', param: null, sequence_number: 1 });
    expect(JSON.parse(events[1]?.split('\ndata: ')[1] ?? '')).toMatchObject({ response: { id: RESPONSE_ID, status: 'failed', error: { code: 'upstream_timeout' } }, sequence_number: 2 });
    await vi.waitFor(() => expect(letGo.stream).toBe(true));
  });

  it("cuts a video's bytes off (the client's body fails, never looking complete), and lets the upstream go", async () => {
    const created = await fetch(`${gateway.url}/v1/videos`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'openai/sora-2', prompt: 'A calico cat playing a piano', seconds: '4' }),
    });
    expect(created.status).toBe(200);

    const response = await get(`/v1/videos/${VIDEO.id}/content`);
    expect(response.status).toBe(200);
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const received: number[] = [];
    const failure = await (async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return undefined;
        received.push(...value);
      }
    })().catch((thrown: unknown) => thrown);

    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).name).not.toBe('TimeoutError');
    expect(Buffer.from(received)).toEqual(MP4_HEAD);
    await vi.waitFor(() => expect(letGo.video).toBe(true));
  });
});
