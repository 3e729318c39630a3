import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryLocalUsage } from '../../tools/cli/local-usage-query.ts';
import { sendJson, sseEvents, startFakeOpenAiUpstream, type FakeUpstream, type ReceivedRequest } from '../support/fake-openai-upstream.ts';
import { readFixture } from '../support/fixtures.ts';
import { startTestGateway, type TestGateway } from '../support/test-gateway.ts';

/**
 * Every exit of a generation request, on every generation route (native: chat, messages, responses), leaves exactly one usage record and a
 * settled prepaid reservation: success (JSON and stream), an upstream refusal, every target failing, an
 * answer whose body breaks off after a 200 head, a stream that breaks off, a client that goes away.
 */
let gateway: TestGateway;
let upstream: FakeUpstream;
let key: string;
const INITIAL_BALANCE_NANOS = 10_000_000_000;

type Behaviour = 'ok' | 'bad-request' | 'overloaded' | 'broken-body' | 'broken-stream' | 'slow-stream';

/** The fake upstream answers as the model id it received says, in the protocol of the path it was called on. */
function answer(request: ReceivedRequest, response: ServerResponse): void {
  const behaviour = String(request.body.model) as Behaviour;
  const protocol = request.path.endsWith('/messages') ? 'anthropic' : request.path.endsWith('/responses') ? 'responses' : 'chat';
  const fixture = (kinds: Record<typeof protocol, string>) => readFixture(kinds[protocol]);
  if (behaviour === 'bad-request') {
    return sendJson(response, 400, JSON.parse(fixture({ anthropic: 'anthropic/messages-error-400-invalid-request.json', chat: 'openai-chat/chat-error-400-unsupported-parameter.json', responses: 'openai-responses/responses-error-400-invalid-temperature.json' })));
  }
  if (behaviour === 'overloaded') return sendJson(response, 503, { error: { message: 'overloaded', type: 'server_error' } });
  const stream = request.body.stream === true;
  if (!stream) {
    const body = fixture({ anthropic: 'anthropic/messages-nonstream-text.json', chat: 'openai-chat/chat-nonstream-text-usage-details.json', responses: 'openai-responses/responses-nonstream-text.json' });
    if (behaviour !== 'broken-body') return sendJson(response, 200, body);
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': String(body.length) });
    response.write(body.slice(0, 40));
    return void setTimeout(() => response.socket?.destroy(), 20);
  }
  const events = sseEvents(fixture({ anthropic: 'anthropic/messages-stream-text.sse', chat: 'openai-chat/chat-stream-text-include-usage.sse', responses: 'openai-responses/responses-stream-text.sse' }));
  response.writeHead(200, { 'content-type': 'text/event-stream' });
  const cut = behaviour === 'broken-stream' ? 2 : events.length;
  const pause = behaviour === 'slow-stream' ? 40 : 1;
  let index = 0;
  const next = () => {
    if (index === cut) return behaviour === 'broken-stream' ? void response.socket?.destroy() : void response.end();
    response.write(events[index++]);
    setTimeout(next, pause);
  };
  next();
}

beforeAll(async () => {
  upstream = await startFakeOpenAiUpstream();
  upstream.answerWith(answer);
  gateway = await startTestGateway();
  await gateway.admin({ command: 'project.create', projectId: 'exits' });
  await gateway.admin({ command: 'provider.set', projectId: 'exits', provider: 'chatty', apiKey: 'sk-chatty-0123456789', baseUrl: upstream.baseUrl, protocol: 'openai' });
  await gateway.admin({ command: 'provider.set', projectId: 'exits', provider: 'claude', apiKey: 'sk-claude-0123456789', baseUrl: upstream.baseUrl, protocol: 'anthropic' });
  await gateway.admin({ command: 'provider.set', projectId: 'exits', provider: 'codexy', apiKey: 'sk-codexy-0123456789', baseUrl: upstream.baseUrl, protocol: 'openai', responses: 'native' });
  for (const behaviour of ['ok', 'bad-request', 'overloaded', 'broken-body', 'broken-stream', 'slow-stream']) {
    for (const provider of ['chatty', 'claude', 'codexy']) {
      await gateway.admin({ command: 'model.allow', projectId: 'exits', slug: `${provider}/${behaviour}`, inputMicrosPer1k: 1_000, outputMicrosPer1k: 2_000 });
    }
  }
  await gateway.admin({ command: 'project.update', projectId: 'exits', balanceUsd: String(INITIAL_BALANCE_NANOS / 1e9) });
  key = (await gateway.admin<{ key: string }>({ command: 'key.create', projectId: 'exits' })).key;
});

afterAll(async () => {
  await gateway.close();
  await upstream.close();
});

let sequence = 0;

/** Sends one request (reading whatever comes back), then returns the usage rows of its request id once written. */
const ROUTES = {
  chat: { path: '/v1/chat/completions', provider: 'chatty', body: { messages: [{ role: 'user', content: 'Hi' }] } },
  messages: { path: '/v1/messages', provider: 'claude', body: { max_tokens: 100, messages: [{ role: 'user', content: 'Hi' }] } },
  responses: { path: '/v1/responses', provider: 'codexy', body: { input: 'Hi' } },
};
type Route = keyof typeof ROUTES;

async function send(route: Route, model: string, options: { stream: boolean; abortAfterFirstChunk?: boolean }) {
  const requestId = `exit-${++sequence}`;
  const body = { model, stream: options.stream, ...ROUTES[route].body };
  const abort = new AbortController();
  const response = await fetch(`${gateway.url}${ROUTES[route].path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'x-request-id': requestId },
    body: JSON.stringify(body),
    signal: abort.signal,
  });
  if (options.abortAfterFirstChunk && response.body) {
    await response.body.getReader().read();
    abort.abort();
  } else await response.text();
  await gateway.host.drainUsage();
  await expect.poll(async () => (await rowsOf(requestId)).length, { timeout: 3_000, interval: 50 }).toBeGreaterThan(0);
  return { status: response.status, rows: await rowsOf(requestId) };
}

async function rowsOf(requestId: string) {
  await gateway.host.drainUsage();
  return queryLocalUsage(gateway.host.dataDir, `SELECT status, http_status, error_code, cost_nanos FROM usage_records WHERE id = '${requestId}'`);
}

/** Nothing stays reserved: what the balance lost is exactly what was spent. */
async function expectReservationsSettled(): Promise<void> {
  const project = await gateway.admin<{ balance_usd: string; spent_usd: string }>({ command: 'project.get', projectId: 'exits' });
  expect(Math.round((Number(project.balance_usd) + Number(project.spent_usd)) * 1e9)).toBe(INITIAL_BALANCE_NANOS);
}

describe.each(['chat', 'messages', 'responses'] as const)('every exit of %s is metered once and settles its reservation', (route) => {
  const model = (behaviour: Behaviour) => `${ROUTES[route].provider}/${behaviour}`;

  it.each([
    { name: 'a JSON answer', behaviour: 'ok', stream: false, status: 200, recorded: 'completed' },
    { name: 'a streamed answer', behaviour: 'ok', stream: true, status: 200, recorded: 'completed' },
    { name: 'an upstream refusal of the request', behaviour: 'bad-request', stream: false, status: 400, recorded: 'failed' },
    { name: 'every target failing', behaviour: 'overloaded', stream: false, status: 502, recorded: 'failed' },
    { name: 'a JSON body breaking off after a 200 head', behaviour: 'broken-body', stream: false, status: 502, recorded: 'failed' },
    { name: 'a stream breaking off', behaviour: 'broken-stream', stream: true, status: 200, recorded: 'failed' },
  ] as const)('$name', async ({ behaviour, stream, status, recorded }) => {
    const result = await send(route, model(behaviour), { stream });
    expect(result.status).toBe(status);
    expect(result.rows).toHaveLength(1);
    expect(result.rows[0]).toMatchObject({ status: recorded });
    await expectReservationsSettled();
  });

  it('a client that goes away mid-stream (the upstream is still metered to its end)', async () => {
    const result = await send(route, model('slow-stream'), { stream: true, abortAfterFirstChunk: true });
    expect(result.rows).toHaveLength(1);
    expect(Number(result.rows[0]?.cost_nanos)).toBeGreaterThan(0);
    await expectReservationsSettled();
  });
});
