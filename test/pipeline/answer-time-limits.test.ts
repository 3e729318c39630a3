import { describe, expect, it } from 'vitest';
import type { UpstreamFetch } from '../../shared/core/ports.ts';
import { createMessagesRouteGroup } from '../../shared/endpoints/messages-route-group.ts';
import { createOpenAiRouteGroup } from '../../shared/endpoints/openai-route-group.ts';
import { asWebStream, type GatewayRequest, type GatewayResponse } from '../../shared/http/gateway-http.ts';
import { SseEventSplitter } from '../../shared/http/sse-event-splitter.ts';
import { createFakeGateway, FAKE_KEY, fakeProvider } from '../support/fake-gateway-services.ts';
import { readFixture } from '../support/fixtures.ts';

const encoder = new TextEncoder();
const chatEvents = new SseEventSplitter().push(readFixture('openai-chat/chat-stream-text-include-usage.sse'));
/** The head of a stream: the role chunk and two words, then nothing. */
const streamHead = chatEvents.slice(0, 3).join('');
const hello = { model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] };

/**
 * An upstream that answers its status (200) and headers at once, sends `sent`, then stalls (until let go). The
 * signal of its exchange and whether its body was cancelled are kept.
 */
function stallingUpstream(contentType: string, sent: string, status = 200) {
  const seen = { signal: undefined as AbortSignal | undefined, bodyCancelled: false };
  const fetch: UpstreamFetch = async (_url, init) => {
    seen.signal = init.signal ?? undefined;
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => controller.enqueue(encoder.encode(sent)),
      pull: () => new Promise<void>(() => {}),
      cancel: () => void (seen.bodyCancelled = true),
    });
    return new Response(body, { status, headers: { 'content-type': contentType } });
  };
  return { fetch, seen };
}

/** A gateway with a chat provider behind the stalling upstream, and short limits: 100 ms of silence, 400 ms in all. */
function gatewayBehind(fetch: UpstreamFetch) {
  const fake = createFakeGateway({ providers: [fakeProvider('openai', ['openai-chat'])], models: [{ slug: 'openai/gpt-4o-mini' }], fetch });
  const services = { ...fake.services, settings: { ...fake.services.settings, upstreamFirstByteTimeoutMs: 100, requestDeadlineMs: 400 } };
  return { openAi: createOpenAiRouteGroup(services), messages: createMessagesRouteGroup(services), records: fake.records };
}

function request(path: string, body: Record<string, unknown>): GatewayRequest {
  return { method: 'POST', path, query: new URLSearchParams(), headers: { authorization: `Bearer ${FAKE_KEY}` }, body: Buffer.from(JSON.stringify(body)), sourceIp: '127.0.0.1' };
}

async function textOf(response: GatewayResponse): Promise<string> {
  return typeof response.body === 'string' ? response.body : new Response(asWebStream(response.body)).text();
}

describe('an upstream that sends its head, then stops', () => {
  it('answers a JSON request 502 upstream_timeout at the deadline, lets the upstream go, and settles one failed record', async () => {
    const upstream = stallingUpstream('application/json', '{"id":"chatcmpl-1","object":"chat.completion",');
    const gateway = gatewayBehind(upstream.fetch);

    const response = await gateway.openAi(request('/v1/chat/completions', hello));

    expect(response.status).toBe(502);
    expect(JSON.parse(await textOf(response))).toEqual({
      error: { message: `Provider "openai" did not finish its answer within the request's deadline.`, type: 'upstream_error', code: 'upstream_timeout', param: null },
    });
    expect(upstream.seen.signal?.aborted).toBe(true);
    expect(gateway.records).toHaveLength(1);
    expect(gateway.records[0]).toMatchObject({ status: 'failed', httpStatus: 502, errorCode: 'upstream_timeout', estimated: true, completionTokens: 0 });
    expect(gateway.records[0]?.promptTokens).toBeGreaterThan(0);
  });

  it('ends a native stream with an upstream_timeout error event once the upstream is silent past the idle limit, and settles one failed record', async () => {
    const upstream = stallingUpstream('text/event-stream', streamHead);
    const gateway = gatewayBehind(upstream.fetch);

    const response = await gateway.openAi(request('/v1/chat/completions', { ...hello, stream: true }));
    const text = await textOf(response);

    expect(response.status).toBe(200);
    const events = new SseEventSplitter().push(text);
    expect(events.slice(0, 3)).toEqual(chatEvents.slice(0, 3));
    expect(JSON.parse(events.at(-1)?.replace(/^data: /, '') ?? '')).toEqual({
      error: { message: 'Provider "openai" sent nothing for 100 ms.', type: 'upstream_error', code: 'upstream_timeout', param: null },
    });
    expect(upstream.seen.bodyCancelled).toBe(true);
    expect(gateway.records).toHaveLength(1);
    expect(gateway.records[0]).toMatchObject({ status: 'failed', httpStatus: 502, errorCode: 'upstream_timeout', estimated: true });
    expect(gateway.records[0]?.completionTokens).toBeGreaterThan(0);
  });

  it('ends a translated stream (Messages to a chat upstream) with an Anthropic error event, and settles one failed record', async () => {
    const upstream = stallingUpstream('text/event-stream', streamHead);
    const gateway = gatewayBehind(upstream.fetch);

    const response = await gateway.messages(request('/v1/messages', { ...hello, max_tokens: 64, stream: true }));
    const text = await textOf(response);

    expect(response.status).toBe(200);
    expect(text).toContain('event: message_start');
    const last = new SseEventSplitter().push(text).at(-1) ?? '';
    expect(last.startsWith('event: error\n')).toBe(true);
    expect(JSON.parse(last.slice(last.indexOf('data: ') + 'data: '.length))).toMatchObject({ type: 'error', error: { message: 'Provider "openai" sent nothing for 100 ms.' } });
    expect(upstream.seen.bodyCancelled).toBe(true);
    expect(gateway.records).toHaveLength(1);
    expect(gateway.records[0]).toMatchObject({ status: 'failed', httpStatus: 502, errorCode: 'upstream_timeout', endpoint: 'messages' });
  });

  it('fails an upstream error answer whose body never ends at the deadline, instead of waiting for it', async () => {
    const upstream = stallingUpstream('application/json', '{"error":{"message":"overloaded",', 500);
    const gateway = gatewayBehind(upstream.fetch);

    const response = await gateway.openAi(request('/v1/chat/completions', hello));

    expect(response.status).toBe(502);
    expect(JSON.parse(await textOf(response))).toMatchObject({ error: { code: 'upstream_timeout' } });
    expect(upstream.seen.signal?.aborted).toBe(true);
    expect(gateway.records).toHaveLength(1);
    expect(gateway.records[0]).toMatchObject({ status: 'failed', httpStatus: 502, errorCode: 'upstream_timeout' });
  });
});

describe('a pass-through read of the upstream (a stored response, a token count) whose body never ends', () => {
  it('answers GET /v1/responses/{id} 502 upstream_timeout at the deadline and lets the upstream go', async () => {
    const upstream = stallingUpstream('application/json', '{"id":"resp_1","object":"response",');
    const fake = createFakeGateway({ providers: [fakeProvider('openai', ['openai-chat', 'openai-responses'])], models: [{ slug: 'openai/gpt-4o-mini' }], fetch: upstream.fetch });
    const owner = { projectId: 'acme', provider: 'openai', model: 'openai/gpt-4o-mini', requestId: 'gen-1' };
    const services = { ...fake.services, generations: { findGeneration: async () => undefined, findStoredResponse: async () => owner }, settings: { ...fake.services.settings, upstreamFirstByteTimeoutMs: 100, requestDeadlineMs: 400 } };

    const response = await createOpenAiRouteGroup(services)({ ...request('/v1/responses/resp_1', {}), method: 'GET', body: Buffer.alloc(0) });

    expect(response.status).toBe(502);
    expect(JSON.parse(await textOf(response))).toMatchObject({ error: { code: 'upstream_timeout' } });
    expect(upstream.seen.signal?.aborted).toBe(true);
  });

  it('answers /v1/messages/count_tokens 502 upstream_timeout at the deadline and lets the upstream go', async () => {
    const upstream = stallingUpstream('application/json', '{"input_tokens":');
    const fake = createFakeGateway({ providers: [fakeProvider('anthropic', ['anthropic-messages'], 'x-api-key')], models: [{ slug: 'anthropic/claude-haiku-4-5' }], fetch: upstream.fetch });
    const services = { ...fake.services, settings: { ...fake.services.settings, upstreamFirstByteTimeoutMs: 100, requestDeadlineMs: 400 } };

    const response = await createMessagesRouteGroup(services)(request('/v1/messages/count_tokens', { model: 'anthropic/claude-haiku-4-5', messages: [{ role: 'user', content: 'Hi' }] }));

    expect(response.status).toBe(502);
    expect(JSON.parse(await textOf(response))).toMatchObject({ type: 'error', error: { message: `Provider "anthropic" did not finish its answer within the request's deadline.` } });
    expect(upstream.seen.signal?.aborted).toBe(true);
  });
});

describe('an object passed through and relayed as it comes (a stored response streamed, a video) whose upstream falls silent', () => {
  /** A gateway whose provider made `resp_1` and `video_1`, behind the stalling upstream; what it logs is kept. */
  async function ownerGatewayBehind(fetch: UpstreamFetch) {
    const fake = createFakeGateway({ providers: [fakeProvider('openai', ['openai-chat', 'openai-responses'])], models: [{ slug: 'openai/gpt-4o-mini' }, { slug: 'openai/sora-2', kind: 'video' }], fetch });
    const owner = { projectId: 'acme', provider: 'openai', model: 'openai/gpt-4o-mini', requestId: 'gen-1' };
    await fake.services.videoJobs.save({ projectId: 'acme', videoId: 'video_1', provider: 'openai', model: 'openai/sora-2', requestId: 'gen-2', keyId: 'key_1', createdAt: '2025-01-01T00:00:00.000Z', video: { id: 'video_1', status: 'completed', seconds: '4' } });
    const services = { ...fake.services, generations: { findGeneration: async () => undefined, findStoredResponse: async () => owner }, settings: { ...fake.services.settings, upstreamFirstByteTimeoutMs: 100, requestDeadlineMs: 60_000 } };
    const logged: Array<{ code: string; requestId: string }> = [];
    const serve = createOpenAiRouteGroup(services, (error, requestId) => logged.push({ code: error.code, requestId }));
    return { serve, logged };
  }

  const get = (path: string, query = ''): GatewayRequest => ({ ...request(path, {}), method: 'GET', query: new URLSearchParams(query), body: Buffer.alloc(0), headers: { authorization: `Bearer ${FAKE_KEY}`, 'x-request-id': 'req-silent' } });

  it("ends GET /v1/responses/{id}?stream=true with OpenAI's upstream_timeout error event, lets the upstream go and logs the failure", async () => {
    const created = 'event: response.created\ndata: {"type":"response.created","sequence_number":0,"response":{"id":"resp_1","status":"in_progress"}}\n\n';
    const upstream = stallingUpstream('text/event-stream', created);
    const gateway = await ownerGatewayBehind(upstream.fetch);

    const response = await gateway.serve(get('/v1/responses/resp_1', 'stream=true'));
    const text = await textOf(response);

    expect(response.status).toBe(200);
    const events = new SseEventSplitter().push(text);
    expect(events[0]).toBe(created);
    expect(events.slice(1).map((event) => event.split('\n')[0])).toEqual(['event: error', 'event: response.failed']);
    expect(events[1]).toContain('"code":"upstream_timeout","message":"Provider \\"openai\\" sent nothing for 100 ms."');
    expect(upstream.seen.bodyCancelled).toBe(true);
    expect(upstream.seen.signal?.aborted).toBe(true);
    expect(gateway.logged).toEqual([{ code: 'upstream_timeout', requestId: 'req-silent' }]);
  });

  it("cuts GET /v1/videos/{id}/content off with upstream_timeout, lets the upstream go and logs the failure", async () => {
    const upstream = stallingUpstream('video/mp4', '\u0000\u0000\u0000\u0018ftyp');
    const gateway = await ownerGatewayBehind(upstream.fetch);

    const response = await gateway.serve(get('/v1/videos/video_1/content'));
    const failure = await textOf(response).then(
      () => undefined,
      (error: unknown) => error,
    );

    expect(response.status).toBe(200);
    expect(failure).toMatchObject({ code: 'upstream_timeout', message: 'Provider "openai" sent nothing for 100 ms.' });
    expect(upstream.seen.bodyCancelled).toBe(true);
    expect(upstream.seen.signal?.aborted).toBe(true);
    expect(gateway.logged).toEqual([{ code: 'upstream_timeout', requestId: 'req-silent' }]);
  });

  it("answers HEAD of a video's content with its head only, letting the upstream's body go at once", async () => {
    const upstream = stallingUpstream('video/mp4', '\u0000\u0000\u0000\u0018ftyp');
    const gateway = await ownerGatewayBehind(upstream.fetch);

    const response = await gateway.serve({ ...get('/v1/videos/video_1/content'), method: 'HEAD' });

    expect(response.status).toBe(200);
    expect(response.body).toBe('');
    expect(upstream.seen.bodyCancelled).toBe(true);
    expect(gateway.logged).toEqual([]);
  });
});
