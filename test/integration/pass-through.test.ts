import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readUpload } from '../support/binary-files.ts';
import { startFakeOpenAiUpstream, sendJson, type FakeUpstream } from '../support/fake-openai-upstream.ts';
import { generationOf } from '../support/generation-lookup.ts';
import { startTestGateway, type TestGateway } from '../support/test-gateway.ts';

let gateway: TestGateway;
let upstream: FakeUpstream;
let key: string;
let closedKey: string;

const FILE = { id: 'file-abc123', object: 'file', bytes: 120000, created_at: 1677610602, filename: 'batch.jsonl', purpose: 'batch' };

beforeAll(async () => {
  upstream = await startFakeOpenAiUpstream();
  gateway = await startTestGateway();
  for (const projectId of ['open', 'closed']) {
    await gateway.admin({ command: 'project.create', projectId });
    await gateway.admin({ command: 'provider.set', projectId, provider: 'openai', protocol: 'openai', baseUrl: upstream.baseUrl, apiKey: 'sk-upstream-pass-0123456789' });
    await gateway.admin({ command: 'model.allow', projectId, slug: 'openai/codestral-latest', inputMicrosPer1k: 300, outputMicrosPer1k: 900 });
  }
  await gateway.admin({ command: 'project.update', projectId: 'open', passThrough: true });
  // Requests that name no model are priced at the provider's `openai/*` entry.
  await gateway.admin({ command: 'ratecard.set', slug: 'openai/*', inputMicrosPer1k: 0, outputMicrosPer1k: 0, requestMicros: 7 });
  ({ key } = await gateway.admin<{ key: string }>({ command: 'key.create', projectId: 'open' }));
  ({ key: closedKey } = await gateway.admin<{ key: string }>({ command: 'key.create', projectId: 'closed' }));
});

afterAll(async () => {
  await gateway?.close();
  await upstream?.close();
});

const call = (path: string, init: RequestInit & { apiKey?: string } = {}) =>
  fetch(`${gateway.url}${path}`, { ...init, headers: { authorization: `Bearer ${init.apiKey ?? key}`, ...(init.headers as Record<string, string>) } });

describe('pass-through of other /v1/* routes', () => {
  it('answers 404 while the project has pass-through off, naming how to turn it on, without calling the provider', async () => {
    const before = upstream.received.length;
    const response = await call('/v1/files', { apiKey: closedKey });
    expect(response.status).toBe(404);
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('not_found');
    expect(body.error.message).toContain('--pass-through on');
    expect(upstream.received.length).toBe(before);
  });

  it('passes a GET without a model to the project\'s OpenAI provider, query string kept, metered as a request', async () => {
    upstream.answerWith((_request, response) => sendJson(response, 200, { object: 'list', data: [FILE], has_more: false }));

    const response = await call('/v1/files?limit=2&purpose=batch', {
      headers: { 'x-request-id': 'pass-list', 'openai-beta': 'assistants=v2', 'openai-organization': 'org-of-the-client', 'openai-project': 'proj_of_the_client' },
    });

    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ object: 'list', data: [FILE], has_more: false });
    expect(upstream.received.at(-1)).toMatchObject({ method: 'GET', path: '/v1/files?limit=2&purpose=batch' });
    expect(upstream.received.at(-1)?.headers.authorization).toBe('Bearer sk-upstream-pass-0123456789');
    // The credential's organisation and project are the provider key's: a client's header never chooses another.
    expect(upstream.received.at(-1)?.headers).toMatchObject({ 'openai-beta': 'assistants=v2' });
    expect(upstream.received.at(-1)?.headers).not.toHaveProperty('openai-organization');
    expect(upstream.received.at(-1)?.headers).not.toHaveProperty('openai-project');
    const record = await generationOf(gateway, key, 'pass-list');
    expect(record).toMatchObject({ endpoint: 'passthrough', model: 'openai/*', provider: 'openai', billed_units: { requests: 1 }, tokens_prompt: 0, estimated: false });
    expect(record.total_cost).toBe(0.000007);
  });

  it('uploads a file byte for byte, and relays the provider status of a delete', async () => {
    upstream.answerWith((_request, response) => sendJson(response, 200, FILE));
    const jsonl = Buffer.from('{"custom_id":"r1","method":"POST","url":"/v1/chat/completions","body":{}}\n\xff\n', 'latin1');
    const form = new FormData();
    form.set('purpose', 'batch');
    form.set('file', new Blob([jsonl], { type: 'application/jsonl' }), 'batch.jsonl');
    const created = await call('/v1/files', { method: 'POST', body: form });
    expect(created.status).toBe(200);
    const received = upstream.received.at(-1);
    const upload = await readUpload(received?.raw ?? Buffer.alloc(0), received?.headers['content-type']);
    expect(upload.get('file')).toEqual([{ filename: 'batch.jsonl', type: 'application/jsonl', bytes: jsonl }]);
    expect(upload.get('purpose')).toEqual(['batch']);

    upstream.answerWith((_request, response) => sendJson(response, 202, { id: FILE.id, object: 'file', deleted: true }));
    const deleted = await call(`/v1/files/${FILE.id}`, { method: 'DELETE' });
    expect(deleted.status).toBe(202);
    expect(upstream.received.at(-1)).toMatchObject({ method: 'DELETE', path: `/v1/files/${FILE.id}` });
  });

  it('downloads bytes as the provider sends them', async () => {
    const bytes = Buffer.from([0, 1, 2, 250, 251, 252]);
    upstream.answerWith((_request, response) => void response.writeHead(200, { 'content-type': 'application/octet-stream' }).end(bytes));
    const response = await call(`/v1/files/${FILE.id}/content`);
    expect(response.headers.get('content-type')).toBe('application/octet-stream');
    expect(Buffer.from(await response.arrayBuffer())).toEqual(bytes);
  });

  it('routes a body that names a model by the allowlist, with the provider model id, and meters the usage it reports', async () => {
    upstream.answerWith((_request, response) =>
      sendJson(response, 200, { id: 'fim-1', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: 'return a + b' } }], usage: { prompt_tokens: 10, completion_tokens: 4, total_tokens: 14 } }),
    );
    const response = await call('/v1/fim/completions', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-request-id': 'pass-fim' },
      body: JSON.stringify({ model: 'codestral-latest', prompt: 'def add(a, b):', suffix: '', route: 'fallback', models: ['openai/codestral-latest'] }),
    });
    expect(response.status).toBe(200);
    expect(upstream.received.at(-1)).toMatchObject({ method: 'POST', path: '/v1/fim/completions' });
    expect(upstream.received.at(-1)?.body).toEqual({ model: 'codestral-latest', prompt: 'def add(a, b):', suffix: '' });
    const record = await generationOf(gateway, key, 'pass-fim');
    expect(record).toMatchObject({ model: 'openai/codestral-latest', tokens_prompt: 10, tokens_completion: 4 });
    expect(record.total_cost).toBeCloseTo((10 * 300 + 4 * 900) / 1e9, 12);
  });

  it("bills a retrieve as a request only, not the tokens of the object it reads (a batch's, polled)", async () => {
    const batch = { id: 'batch_abc123', object: 'batch', endpoint: '/v1/chat/completions', status: 'completed', request_counts: { total: 100, completed: 100, failed: 0 } };
    const usage = { input_tokens: 1_500_000, input_tokens_details: { cached_tokens: 0 }, output_tokens: 500_000, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 2_000_000 };
    upstream.answerWith((_request, response) => sendJson(response, 200, { ...batch, usage }));
    await gateway.admin({ command: 'ratecard.set', slug: 'openai/*', inputMicrosPer1k: 1000, outputMicrosPer1k: 2000, requestMicros: 7 });

    for (const poll of ['batch-poll-1', 'batch-poll-2']) {
      const response = await call(`/v1/batches/${batch.id}`, { headers: { 'x-request-id': poll } });
      expect(await response.json()).toEqual({ ...batch, usage });
      const record = await generationOf(gateway, key, poll);
      expect(record).toMatchObject({ model: 'openai/*', tokens_prompt: 0, tokens_completion: 0, billed_units: { requests: 1 } });
      expect(record.total_cost).toBe(0.000007);
    }
    // Nor is the request's cost written into the object's usage when the project injects usage cost.
    await gateway.admin({ command: 'project.update', projectId: 'open', usageInjection: true });
    const injected = await call(`/v1/batches/${batch.id}`);
    expect(await injected.json()).toEqual({ ...batch, usage });
    await gateway.admin({ command: 'project.update', projectId: 'open', usageInjection: false });
    await gateway.admin({ command: 'ratecard.set', slug: 'openai/*', inputMicrosPer1k: 0, outputMicrosPer1k: 0, requestMicros: 7 });
  });

  const usageSoFar = { prompt_tokens: 1_500_000, completion_tokens: 500_000, total_tokens: 2_000_000 };
  it.each([
    ["a batch's cancellation", '/v1/batches/batch_abc123/cancel', { id: 'batch_abc123', object: 'batch', status: 'cancelling', usage: { input_tokens: 1_500_000, output_tokens: 500_000, total_tokens: 2_000_000 } }],
    ["an Assistants run's cancellation", '/v1/threads/thread_abc/runs/run_abc/cancel', { id: 'run_abc', object: 'thread.run', thread_id: 'thread_abc', status: 'cancelling', usage: usageSoFar }],
    ["a stored chat completion's metadata update", '/v1/chat/completions/chatcmpl-abc123', { id: 'chatcmpl-abc123', object: 'chat.completion', metadata: { topic: 'x' }, choices: [], usage: usageSoFar }],
  ])('bills a POST answered with an object that outlives it as a request only, not by its usage so far: %s', async (_what, path, kept) => {
    upstream.answerWith((_request, response) => sendJson(response, 200, kept));
    await gateway.admin({ command: 'ratecard.set', slug: 'openai/*', inputMicrosPer1k: 1000, outputMicrosPer1k: 2000, requestMicros: 7 });
    await gateway.admin({ command: 'project.update', projectId: 'open', usageInjection: true });

    const requestId = `kept-${path.split('/').at(-1) ?? ''}`;
    const response = await call(path, { method: 'POST', headers: { 'content-type': 'application/json', 'x-request-id': requestId }, body: path.includes('chat') ? JSON.stringify({ metadata: { topic: 'x' } }) : undefined });

    // Shown as the provider keeps it: the request's cost is not written into the object's usage.
    expect(await response.json()).toEqual(kept);
    const record = await generationOf(gateway, key, requestId);
    expect(record).toMatchObject({ model: 'openai/*', tokens_prompt: 0, tokens_completion: 0, billed_units: { requests: 1 } });
    expect(record.total_cost).toBe(0.000007);
    await gateway.admin({ command: 'project.update', projectId: 'open', usageInjection: false });
    await gateway.admin({ command: 'ratecard.set', slug: 'openai/*', inputMicrosPer1k: 0, outputMicrosPer1k: 0, requestMicros: 7 });
  });

  it('refuses a model that is not on the allowlist with 404, as on every route', async () => {
    const response = await call('/v1/fim/completions', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'openai/gpt-5', prompt: 'x' }) });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: { code: 'model_not_allowed' } });
  });

  it('reads a JSON body labelled otherwise (text/plain, no type) as JSON: its model must be allowed too', async () => {
    const body = ' {"model":"openai/gpt-expensive","name":"x"}';
    // fetch gives a string body the text/plain type, and bytes none.
    for (const sent of [body, new TextEncoder().encode(body)]) {
      const response = await call('/v1/assistants', { method: 'POST', headers: { 'x-gateway-provider': 'openai' }, body: sent });
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({ error: { code: 'model_not_allowed' } });
    }
  });

  it('passes bytes that only begin like a JSON object (JSON Lines) as bytes, as sent', async () => {
    upstream.answerWith((_request, response) => sendJson(response, 200, { id: 'file-lines', object: 'file' }));
    const lines = '{"custom_id":"a","body":{}}\n{"custom_id":"b","body":{}}\n';
    const response = await call('/v1/uploads/up_1/parts', { method: 'POST', headers: { 'content-type': 'application/octet-stream', 'x-gateway-provider': 'openai' }, body: lines });
    expect(response.status).toBe(200);
    expect(upstream.received.at(-1)?.raw.toString()).toBe(lines);
  });

  it('asks for the provider when the body names no model and the project has several', async () => {
    await gateway.admin({ command: 'provider.set', projectId: 'open', provider: 'groq', baseUrl: upstream.baseUrl, apiKey: 'gsk-upstream-0123456789' });
    try {
      const ambiguous = await call('/v1/batches');
      expect(ambiguous.status).toBe(400);
      expect(await ambiguous.json()).toMatchObject({ error: { code: 'provider_required', param: 'x-gateway-provider' } });

      upstream.answerWith((_request, response) => sendJson(response, 200, { object: 'list', data: [] }));
      const named = await call('/v1/batches', { headers: { 'x-gateway-provider': 'groq' } });
      expect(named.status).toBe(200);
      expect(upstream.received.at(-1)?.headers.authorization).toBe('Bearer gsk-upstream-0123456789');
    } finally {
      await gateway.admin({ command: 'provider.remove', projectId: 'open', provider: 'groq' });
    }
  });

  it("never passes a request to Amazon Bedrock's runtime, whose calls the gateway's own AWS credentials would sign", async () => {
    await gateway.admin({ command: 'provider.set', projectId: 'open', provider: 'bedrock', region: 'us-east-1' });
    try {
      const before = upstream.received.length;
      const response = await call('/v1/files', { headers: { 'x-gateway-provider': 'bedrock' } });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ error: { code: 'provider_not_passed_through', param: 'x-gateway-provider' } });
      expect(upstream.received.length).toBe(before);
    } finally {
      await gateway.admin({ command: 'provider.remove', projectId: 'open', provider: 'bedrock' });
    }
  });

  it('is refused with 403 by an access policy that does not allow the passthrough group', async () => {
    await gateway.admin({ command: 'project.update', projectId: 'open', allowedEndpoints: ['chat'] });
    try {
      expect((await call('/v1/files')).status).toBe(403);
    } finally {
      await gateway.admin({ command: 'project.update', projectId: 'open', allowedEndpoints: 'none' });
    }
  });

  it('never reaches a route of the gateway as pass-through: /v1//messages and lookalikes (/v1/Chat/Completions, ;x, %2F) are refused, /v1/%65mbeddings is the embeddings route, each under its own policy', async () => {
    await gateway.admin({ command: 'project.update', projectId: 'open', allowedEndpoints: ['chat', 'passthrough', 'models', 'mcp'] });
    try {
      const before = upstream.received.length;
      const messages = { model: 'openai/codestral-latest', max_tokens: 16, stream: true, messages: [{ role: 'user', content: 'Hi' }] };
      const post = (path: string, body: unknown) => call(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

      const direct = await post('/v1/messages', messages);
      expect(direct.status).toBe(403);
      expect(await direct.json()).toMatchObject({ type: 'error', error: { type: 'permission_error' } });
      for (const path of ['/v1//messages', '//v1/messages/']) {
        const doubled = await post(path, messages);
        expect(doubled.status, path).toBe(404);
        expect(await doubled.json()).toMatchObject({ error: { code: 'not_found', message: expect.stringContaining('never as pass-through') } });
      }
      const encoded = await post('/v1/%65mbeddings', { model: 'openai/codestral-latest', input: 'hi' });
      expect(encoded.status).toBe(403);
      expect(await encoded.json()).toMatchObject({ error: { code: 'endpoint_not_allowed' } });
      // Paths an upstream that reads leniently would take for a route: letter case, an encoded slash, `;` parameters.
      for (const path of ['/v1/Chat/Completions', '/v1/chat/completions;x', '/v1/chat%2Fcompletions', '/v1/Messages', '/v1/EMBEDDINGS', '/v1/Responses/resp_ABC']) {
        const lookalike = await post(path, { model: 'openai/codestral-latest', input: 'hi', messages: [{ role: 'user', content: 'Hi' }] });
        expect(lookalike.status, path).toBe(404);
        expect(await lookalike.json()).toMatchObject({ error: { code: 'not_found', message: expect.stringContaining('letter case, escapes or ";" parameters') } });
      }
      expect(upstream.received.length).toBe(before);
    } finally {
      await gateway.admin({ command: 'project.update', projectId: 'open', allowedEndpoints: 'none' });
    }
  });

  it('refuses a JSON body nested too deep with 400 json_too_deep, before any provider call or usage record', async () => {
    const before = upstream.received.length;
    const response = await call('/v1/files', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-request-id': 'pass-deep' },
      body: `{"purpose":"batch","x":${'['.repeat(200_000)}${']'.repeat(200_000)}}`,
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: 'json_too_deep', type: 'invalid_request_error' } });
    expect(upstream.received.length).toBe(before);
    await gateway.host.drainUsage();
    expect((await call('/v1/generation?id=pass-deep')).status).toBe(404);
  });

  it('still needs a project key', async () => {
    const response = await fetch(`${gateway.url}/v1/files`);
    expect(response.status).toBe(401);
  });
});
