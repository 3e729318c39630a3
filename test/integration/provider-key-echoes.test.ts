import type { ServerResponse } from 'node:http';
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendJson, sendSse, startFakeOpenAiUpstream, type FakeUpstream, type ReceivedRequest } from '../support/fake-openai-upstream.ts';
import { createProjectWithKey, startTestGateway, type TestGateway } from '../support/test-gateway.ts';

/** A provider key of no known shape (a Gemini-like one), so that only the gateway's knowledge of it can hide it. */
const PROVIDER_KEY = 'AIzaSyLEAKTESTKEY1234567890';

/**
 * A provider that quotes the key it was sent: in an error event after its stream began (the status is 200 by
 * then), and in a 200 JSON answer. Clients must never see it, whatever protocol they speak.
 */
function echoingTheKey(request: ReceivedRequest, response: ServerResponse): void | Promise<void> {
  const key = request.headers.authorization?.replace(/^Bearer /, '') ?? '';
  const created = 1_700_000_000;
  if (request.body.stream !== true) {
    return sendJson(response, 200, {
      id: 'chatcmpl-echo',
      object: 'chat.completion',
      created,
      model: 'm',
      choices: [{ index: 0, message: { role: 'assistant', content: `You sent ${key}.` }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 },
    });
  }
  const chunk = { id: 'chatcmpl-echo', object: 'chat.completion.chunk', created, model: 'm', choices: [{ index: 0, delta: { role: 'assistant', content: 'Hi' }, finish_reason: null }] };
  // Asked to, the error quotes the key as a server that encoded or shouted it would.
  const quoted = JSON.stringify(request.body).includes('encoded') ? `${key.toUpperCase()} (${Buffer.from(`Bearer ${key}`).toString('base64')})` : key;
  const error = `data: ${JSON.stringify({ error: { message: `key ${quoted} was rejected`, type: 'invalid_request_error' } })}\n\n`;
  // Asked to, the error comes first: a client that holds its status until content (the editor's) answers it as an error.
  if (JSON.stringify(request.body).includes('error first')) return sendSse(response, [error]);
  return sendSse(response, [`data: ${JSON.stringify(chunk)}\n\n`, error]);
}

let gateway: TestGateway;
let upstream: FakeUpstream;
let key: string;

beforeAll(async () => {
  upstream = await startFakeOpenAiUpstream();
  upstream.answerWith(echoingTheKey);
  gateway = await startTestGateway();
  key = await createProjectWithKey(gateway, { projectId: 'echoes', provider: 'lab', baseUrl: upstream.baseUrl, apiKey: PROVIDER_KEY, models: [{ slug: 'lab/m' }] });
});

afterAll(async () => {
  await gateway.close();
  await upstream.close();
});

async function streamedText(path: string, body: Record<string, unknown>, headers: Record<string, string> = {}): Promise<string> {
  const response = await fetch(`${gateway.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return response.text();
}

describe("a provider's key echoed in its answer", () => {
  it('is hidden in an error event of a native chat stream', async () => {
    const text = await streamedText('/v1/chat/completions', { model: 'lab/m', stream: true, messages: [{ role: 'user', content: 'x' }] });
    expect(text).toContain('was rejected');
    expect(text).not.toContain(PROVIDER_KEY);
  });

  it('is hidden in the error a translated stream ends with in the other forms an error may quote it in: shouted, base64-encoded', async () => {
    const text = await streamedText('/v1/messages', { model: 'lab/m', stream: true, max_tokens: 16, messages: [{ role: 'user', content: 'encoded' }] });
    expect(text).toContain('was rejected');
    expect(text).not.toContain(PROVIDER_KEY.toUpperCase());
    expect(text).not.toContain(Buffer.from(`Bearer ${PROVIDER_KEY}`).toString('base64').slice(12, 32));
  });

  it('is hidden in the error event a translated stream ends with (Messages and Responses clients)', async () => {
    const messages = await streamedText('/v1/messages', { model: 'lab/m', max_tokens: 50, stream: true, messages: [{ role: 'user', content: 'x' }] }, { 'anthropic-version': '2023-06-01' });
    expect(messages).toContain('event: error');
    expect(messages).not.toContain(PROVIDER_KEY);
    const responses = await streamedText('/v1/responses', { model: 'lab/m', stream: true, input: 'x' });
    expect(responses).toContain('response.failed');
    expect(responses).not.toContain(PROVIDER_KEY);
  });

  it("is hidden in the error the editor's route answers when the stream's first event is the provider's error", async () => {
    const editor = await fetch(`${gateway.url}/v1/editor/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'lab/m', stream: true, input: [{ role: 'user', content: 'error first' }] }),
    });
    const text = await editor.text();
    expect(text).toContain('was rejected');
    expect(text).not.toContain(PROVIDER_KEY);
  });

  it('is hidden in a complete answer, native and translated', async () => {
    const chat = await gateway.openai(key).chat.completions.create({ model: 'lab/m', messages: [{ role: 'user', content: 'x' }] });
    expect(chat.choices[0]?.message.content).toBe('You sent [redacted].');
    const anthropic = new Anthropic({ apiKey: key, baseURL: gateway.url, maxRetries: 0 });
    const message = await anthropic.messages.create({ model: 'lab/m', max_tokens: 50, messages: [{ role: 'user', content: 'x' }] });
    expect(JSON.stringify(message.content)).toContain('You sent [redacted].');
  });
});

describe("a short placeholder key (a local server's)", () => {
  it("never changes an answer: 'local' is a word models write (localhost), not a secret", async () => {
    const local = await startFakeOpenAiUpstream();
    local.answerWith(echoingTheKey);
    try {
      const localKey = await createProjectWithKey(gateway, { projectId: 'local-server', provider: 'vllm', baseUrl: local.baseUrl, apiKey: 'local', models: [{ slug: 'vllm/qwen3-8b' }] });
      const chat = await gateway.openai(localKey).chat.completions.create({ model: 'vllm/qwen3-8b', messages: [{ role: 'user', content: 'x' }] });
      expect(chat.choices[0]?.message.content).toBe('You sent local.');
    } finally {
      await local.close();
    }
  });
});
