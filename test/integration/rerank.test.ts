import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAiUpstream, sendJson, type FakeUpstream } from '../support/fake-openai-upstream.ts';
import { readFixture } from '../support/fixtures.ts';
import { generationOf } from '../support/generation-lookup.ts';
import { startTestGateway, type TestGateway } from '../support/test-gateway.ts';

let gateway: TestGateway;
let upstream: FakeUpstream;
let key: string;

const documents = ['Carson City is the capital city of the American state of Nevada.', 'Washington, D.C. is the capital of the United States.', 'Capital punishment has existed in the United States since before it was a country.', 'The Commonwealth of the Northern Mariana Islands is a group of islands in the Pacific Ocean.', 'Capitalization in English grammar is the use of a capital letter.', 'North Dakota is a state in the United States. Its capital is Bismarck.'];

beforeAll(async () => {
  upstream = await startFakeOpenAiUpstream();
  gateway = await startTestGateway();
  const projectId = 'ranking';
  await gateway.admin({ command: 'project.create', projectId });
  for (const [provider, protocol] of [['cohere', 'cohere'], ['voyage', 'voyage']] as const) {
    await gateway.admin({ command: 'provider.set', projectId, provider, protocol, baseUrl: upstream.baseUrl, apiKey: `sk-${provider}-upstream-0123456789` });
  }
  // Together is OpenAI-compatible and reranks in Jina's shape (its known default).
  await gateway.admin({ command: 'provider.set', projectId, provider: 'together', baseUrl: upstream.baseUrl, apiKey: 'sk-together-upstream-0123456789' });
  await gateway.admin({ command: 'provider.set', projectId, provider: 'openai', protocol: 'openai', baseUrl: upstream.baseUrl, apiKey: 'sk-openai-upstream-0123456789' });
  await gateway.admin({ command: 'model.allow', projectId, slug: 'cohere/rerank-v3.5', kind: 'rerank', searchUnitMicros: 2000 });
  await gateway.admin({ command: 'model.allow', projectId, slug: 'voyage/rerank-2.5', kind: 'rerank', inputMicrosPer1k: 50 });
  await gateway.admin({ command: 'model.allow', projectId, slug: 'together/Salesforce/Llama-Rank-v1', kind: 'rerank', inputMicrosPer1k: 100 });
  await gateway.admin({ command: 'model.allow', projectId, slug: 'openai/gpt-4o-mini' });
  await gateway.admin({ command: 'model.allow', projectId, slug: 'openai/some-reranker', kind: 'rerank' });
  ({ key } = await gateway.admin<{ key: string }>({ command: 'key.create', projectId }));
});

afterAll(async () => {
  await gateway?.close();
  await upstream?.close();
});

function rerank(body: Record<string, unknown>, requestId?: string) {
  return fetch(`${gateway.url}/v1/rerank`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...(requestId ? { 'x-request-id': requestId } : {}) },
    body: JSON.stringify(body),
  });
}

describe('POST /v1/rerank over plain HTTP, in Cohere v2 shape', () => {
  it('goes natively to a Cohere-dialect provider and bills its search units', async () => {
    const recorded = readFixture('other/cohere-rerank-v2.json');
    upstream.answerWith((_request, response) => sendJson(response, 200, recorded));

    const response = await rerank({ model: 'cohere/rerank-v3.5', query: 'What is the capital of the United States?', documents: documents.slice(0, 2), top_n: 2, route: 'fallback' }, 'rerank-cohere');

    expect(response.status).toBe(200);
    expect(await response.text()).toBe(recorded);
    expect(upstream.received.at(-1)).toMatchObject({ path: '/v1/rerank', body: { model: 'rerank-v3.5', query: 'What is the capital of the United States?', documents: documents.slice(0, 2), top_n: 2 } });
    expect(upstream.received.at(-1)?.headers.authorization).toBe('Bearer sk-cohere-upstream-0123456789');
    expect(upstream.received.at(-1)?.body).not.toHaveProperty('route');
    const record = await generationOf(gateway, key, 'rerank-cohere');
    expect(record).toMatchObject({ endpoint: 'rerank', provider: 'cohere', billed_units: { search_units: 1 } });
    expect(record.total_cost).toBeCloseTo(0.002, 12);
  });

  it('translates to Voyage (top_k) and its answer back to Cohere shape, billing its tokens', async () => {
    upstream.answerWith((_request, response) => sendJson(response, 200, readFixture('other/voyage-rerank.json')));

    const response = await rerank({ model: 'rerank-2.5', query: 'capital of the United States', documents: documents.slice(0, 2), top_n: 2 }, 'rerank-voyage');

    expect(upstream.received.at(-1)?.body).toEqual({ model: 'rerank-2.5', query: 'capital of the United States', documents: documents.slice(0, 2), top_k: 2, return_documents: false });
    expect(await response.json()).toEqual({
      id: 'rerank-voyage',
      results: [
        { index: 1, relevance_score: 0.5703125 },
        { index: 0, relevance_score: 0.255859375 },
      ],
      meta: { api_version: { version: '2' }, tokens: { input_tokens: 12 } },
    });
    const record = await generationOf(gateway, key, 'rerank-voyage');
    expect(record).toMatchObject({ provider: 'voyage', tokens_prompt: 12, estimated: false });
  });

  it('translates to Together (Jina shape), giving the documents back when asked', async () => {
    upstream.answerWith((_request, response) => sendJson(response, 200, readFixture('other/togetherai-rerank-jina-like.json')));

    const response = await rerank({ model: 'together/Salesforce/Llama-Rank-v1', query: 'capital', documents: documents.map((text) => ({ text })), top_n: 2, return_documents: true }, 'rerank-together');

    expect(upstream.received.at(-1)?.body).toEqual({ model: 'Salesforce/Llama-Rank-v1', query: 'capital', documents, top_n: 2, return_documents: true });
    const answer = (await response.json()) as { id: string; results: unknown[] };
    expect(answer.id).toBe('oGs6Zt9-62bZhn-99529372487b1b0a');
    expect(answer.results).toEqual([
      { index: 0, relevance_score: 0.6475887154399037, document: { text: documents[0] } },
      { index: 5, relevance_score: 0.6323295373206566, document: { text: documents[5] } },
    ]);
    expect(await generationOf(gateway, key, 'rerank-together')).toMatchObject({ provider: 'together', tokens_prompt: 2966 });
  });

  it('names a translated answer that has no id of its own by its generation id, which /v1/generation finds', async () => {
    const { id: _none, ...unnamed } = JSON.parse(readFixture('other/togetherai-rerank-jina-like.json')) as Record<string, unknown>;
    upstream.answerWith((_request, response) => sendJson(response, 200, unnamed));

    const response = await rerank({ model: 'together/Salesforce/Llama-Rank-v1', query: 'capital', documents, top_n: 2 });

    const generationId = response.headers.get('x-generation-id') ?? '';
    expect(generationId).toMatch(/^gen-/);
    expect(((await response.json()) as { id: string }).id).toBe(generationId);
    expect(await generationOf(gateway, key, generationId)).toMatchObject({ id: generationId, provider: 'together', tokens_prompt: 2966 });
  });

  it("relays a provider's refusal in OpenAI's error format with its status, whatever the dialect", async () => {
    upstream.answerWith((_request, response) => sendJson(response, 400, { detail: 'The query is too long: 8193 tokens, at most 8000.' }));
    const voyage = await rerank({ model: 'voyage/rerank-2.5', query: 'q', documents: ['d'] });
    expect(voyage.status).toBe(400);
    expect(await voyage.json()).toEqual({ error: { message: 'The query is too long: 8193 tokens, at most 8000.', type: 'invalid_request_error', code: null, param: null } });

    upstream.answerWith((_request, response) => sendJson(response, 422, { detail: [{ loc: ['body', 'top_n'], msg: 'ensure this value is greater than 0', type: 'value_error' }] }));
    const together = await rerank({ model: 'together/Salesforce/Llama-Rank-v1', query: 'q', documents: ['d'] });
    expect(together.status).toBe(422);
    expect(await together.json()).toMatchObject({ error: { message: 'top_n: ensure this value is greater than 0', type: 'invalid_request_error' } });

    upstream.answerWith((_request, response) => sendJson(response, 400, { id: 'c0e1e9a4', message: 'invalid request: list of documents must not be empty' }));
    const cohere = await rerank({ model: 'cohere/rerank-v3.5', query: 'q', documents: ['d'] });
    expect(cohere.status).toBe(400);
    expect(await cohere.json()).toMatchObject({ error: { message: 'invalid request: list of documents must not be empty', type: 'invalid_request_error' } });
  });

  it('refuses a chat model with 400 model_unsupported_for_endpoint', async () => {
    const response = await rerank({ model: 'openai/gpt-4o-mini', query: 'q', documents: ['d'] });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: 'model_unsupported_for_endpoint', param: 'model' } });
  });

  it('refuses a rerank model whose provider serves no rerank API, naming why', async () => {
    const response = await rerank({ model: 'openai/some-reranker', query: 'q', documents: ['d'] });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('model_unsupported_for_endpoint');
    expect(body.error.message).toContain('openai-chat');
  });

  it('refuses a request without documents with 400 naming the field', async () => {
    const response = await rerank({ model: 'cohere/rerank-v3.5', query: 'q', documents: [] });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { param: 'documents' } });
  });
});
