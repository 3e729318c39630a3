import { describe, expect, it } from 'vitest';
import { cohereRerank } from '../../shared/protocols/rerank/cohere-rerank.ts';
import { jinaRerank } from '../../shared/protocols/rerank/jina-rerank.ts';
import { readRerankErrorWords } from '../../shared/protocols/rerank/rerank-errors.ts';
import { readRerankRequest, searchUnitsBound } from '../../shared/protocols/rerank/rerank-request.ts';
import { voyageRerank } from '../../shared/protocols/rerank/voyage-rerank.ts';
import { readFixture } from '../support/fixtures.ts';

const request = readRerankRequest({ model: 'm', query: 'q', documents: ['a', { text: 'b' }], top_n: 2, return_documents: true });
const fixture = (name: string) => JSON.parse(readFixture(`other/${name}`)) as Record<string, unknown>;

describe('rerank dialects', () => {
  it('write the request in their own words', () => {
    expect(cohereRerank.writeRequest(request, 'rerank-v3.5')).toEqual({ model: 'rerank-v3.5', query: 'q', documents: ['a', 'b'], top_n: 2, return_documents: true });
    expect(jinaRerank.writeRequest(request, 'jina-reranker-v2')).toEqual({ model: 'jina-reranker-v2', query: 'q', documents: ['a', 'b'], top_n: 2, return_documents: true });
    expect(voyageRerank.writeRequest(request, 'rerank-2.5')).toEqual({ model: 'rerank-2.5', query: 'q', documents: ['a', 'b'], top_k: 2, return_documents: true });
  });

  it("read Cohere's search units, and count one per 100 documents when it reports none", () => {
    expect(cohereRerank.readResponse(fixture('cohere-rerank-v2.json'), request)?.units).toEqual({ searchUnits: 1 });
    expect(cohereRerank.readResponse({ results: [] }, readRerankRequest({ model: 'm', query: 'q', documents: Array.from({ length: 250 }, () => 'd') }))?.units).toEqual({ searchUnits: 3 });
  });

  it("read Together's prompt tokens and Voyage's total tokens", () => {
    expect(jinaRerank.readResponse(fixture('togetherai-rerank-jina-like.json'), request)?.usage?.promptTokens).toBe(2966);
    expect(voyageRerank.readResponse(fixture('voyage-rerank.json'), request)?.usage?.promptTokens).toBe(12);
  });

  it("read Jina's own shape: total tokens and documents as {text}", () => {
    const answer = jinaRerank.readResponse({ model: 'jina-reranker-v2', usage: { total_tokens: 9 }, results: [{ index: 1, relevance_score: 0.9, document: { text: 'b' } }] }, request);
    expect(answer).toEqual({ id: '', results: [{ index: 1, relevanceScore: 0.9, document: 'b' }], usage: { promptTokens: 9, completionTokens: 0, cachedTokens: 0, reasoningTokens: 0, estimated: false } });
  });

  it('refuse what is not an answer of their dialect', () => {
    expect(voyageRerank.readResponse(fixture('cohere-rerank-v2.json'), request)).toBeUndefined();
  });
});

describe('searchUnitsBound', () => {
  it('counts a search unit per 100 documents, a long document as one per 500 bytes', () => {
    expect(searchUnitsBound({ model: 'm', query: 'q', documents: Array.from({ length: 100 }, () => 'short') })).toEqual({ searchUnits: 1 });
    expect(searchUnitsBound({ model: 'm', query: 'q', documents: ['x'.repeat(50_001)] })).toEqual({ searchUnits: 2 });
  });
});

describe('readRerankErrorWords', () => {
  const answer = (status: number, body: string) => ({ status, retryAfter: null, contentType: 'application/json', body });

  it('reads the kind from the status when the body names none', () => {
    expect(readRerankErrorWords(answer(404, JSON.stringify({ detail: 'Model not found' })))).toEqual({ type: 'not-found', message: 'Model not found' });
    expect(readRerankErrorWords(answer(413, JSON.stringify({ message: 'too many documents' })))).toEqual({ type: 'request-too-large', message: 'too many documents' });
  });

  it("keeps an OpenAI-compatible server's own type, code and param", () => {
    const body = JSON.stringify({ error: { message: 'bad top_n', type: 'invalid_request_error', code: 'invalid_value', param: 'top_n' } });
    expect(readRerankErrorWords(answer(400, body))).toEqual({ type: 'invalid-request', message: 'bad top_n', code: 'invalid_value', param: 'top_n' });
  });

  it('says the status when the body says nothing', () => {
    expect(readRerankErrorWords(answer(400, ''))).toEqual({ type: 'invalid-request', message: 'The provider refused the request (HTTP 400).' });
  });
});
