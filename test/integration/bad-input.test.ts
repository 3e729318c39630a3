import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendJson, startFakeOpenAiUpstream, type FakeUpstream } from '../support/fake-openai-upstream.ts';
import { createProjectWithKey, startTestGateway, type TestGateway } from '../support/test-gateway.ts';

/** Careless and hostile input: every answer is the route's own error format, none is a 5xx or a hang. */
let gateway: TestGateway;
let upstream: FakeUpstream;
let key: string;

beforeAll(async () => {
  upstream = await startFakeOpenAiUpstream();
  gateway = await startTestGateway({}, { bodyStallMs: 300 });
  key = await createProjectWithKey(gateway, { projectId: 'careless', baseUrl: upstream.baseUrl, models: [{ slug: 'openai/gpt-4o-mini' }] });
});

afterAll(async () => {
  await gateway.close();
  await upstream.close();
});

const post = (path: string, body: BodyInit, headers: Record<string, string> = {}) =>
  fetch(`${gateway.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers }, body });

/** Sends raw bytes on a socket and returns the whole answer as text (the socket is closed by the server). */
function rawExchange(bytes: string | Buffer, keepOpen = false): Promise<string> {
  const { port } = new URL(gateway.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.write(bytes));
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString('utf8')));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
    if (!keepOpen) socket.on('close', () => resolve(answer));
  });
}

describe('bodies the gateway refuses before any upstream call', () => {
  it('answers a body that is not UTF-8 with 400 invalid_utf8, in each route group\'s format', async () => {
    const bytes = Buffer.from('{"model":"openai/gpt-4o-mini","messages":[{"role":"user","content":"\xff\xfe"}]}', 'latin1');
    const chat = await post('/v1/chat/completions', bytes);
    expect(chat.status).toBe(400);
    expect(await chat.json()).toMatchObject({ error: { code: 'invalid_utf8', type: 'invalid_request_error' } });
    const messages = await post('/v1/messages', bytes);
    expect(messages.status).toBe(400);
    expect(await messages.json()).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
  });

  it('answers JSON nested 10,000 levels deep with 400, not a 500, and demotes no model', async () => {
    const deep = `{"model":"openai/gpt-4o-mini","messages":[{"role":"user","content":"hi"}],"metadata":${'['.repeat(10_000)}${']'.repeat(10_000)}}`;
    const response = await post('/v1/chat/completions', deep);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: 'json_too_deep' } });
    upstream.answerWith((_request, answer) => sendJson(answer, 200, { id: 'c', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }] }));
    expect((await post('/v1/chat/completions', JSON.stringify({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }))).status).toBe(200);
  });

  it('answers a body over the size limit with 413 in the route\'s format', async () => {
    const huge = Buffer.alloc(9 * 1024 * 1024, 0x61);
    const response = await post('/v1/messages', huge);
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ type: 'error', error: { type: 'request_too_large' } });
  });

  it('refuses a binary body whose base64 form is over 6 MB with 413, as a function URL refuses the invocation', async () => {
    // 5 MB of bytes that are not text: base64-encoded in the event, about 6.7 MB.
    const upload = Buffer.alloc(5 * 1024 * 1024, 0xff);
    const response = await post('/v1/audio/transcriptions', upload, { 'content-type': 'multipart/form-data; boundary=x' });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ error: { code: 'request_too_large', message: expect.stringContaining('about 4.5 MB') } });
    // The same size as text is within the limit: it reaches the route group (which finds no form in it).
    expect((await post('/v1/audio/transcriptions', Buffer.alloc(5 * 1024 * 1024, 0x61), { 'content-type': 'text/plain' })).status).not.toBe(413);
  });

  it('gives up on a body that stops arriving (shorter than its Content-Length) with 408, in JSON', async () => {
    const answer = await rawExchange('POST /v1/chat/completions HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"model":', true);
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(answer).toContain('"code":"request_timeout"');
  });

  it('answers headers too large with 431 and a request Node cannot parse with 400, both in JSON', async () => {
    const big = await rawExchange(`GET /v1/models HTTP/1.1\r\nhost: x\r\nx-big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(big).toMatch(/^HTTP\/1\.1 431/);
    expect(big).toContain('"code":"headers_too_large"');
    const garbled = await rawExchange('GET /v1/models HTTP/1.1\r\nbad header line\r\n\r\n');
    expect(garbled).toMatch(/^HTTP\/1\.1 400/);
    expect(garbled).toContain('"code":"malformed_request"');
  });
});

describe('paths and methods', () => {
  it('serves HEAD /health without a body', async () => {
    const response = await fetch(`${gateway.url}/health`, { method: 'HEAD' });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('');
  });

  it('reads //v1/models as /v1/models, never as /models', async () => {
    const response = await fetch(`${gateway.url}//v1/models`, { headers: { authorization: `Bearer ${key}` } });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ object: 'list' });
  });
});

describe('an upstream that redirects', () => {
  it('is a 502 upstream failure in the client\'s format, not the redirect itself', async () => {
    upstream.answerWith((_request, answer) => void answer.writeHead(302, { 'content-type': 'text/html' }).end('<html>moved</html>'));
    const response = await post('/v1/chat/completions', JSON.stringify({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }));
    expect(response.status).toBe(502);
    expect(await response.json()).toMatchObject({ error: { code: 'upstream_redirected' } });
  });
});
