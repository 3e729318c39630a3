import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../../shared/core/errors.ts';
import {
  buildUpstreamChatBody,
  parseChatCompletionRequest,
  gatewayOnlyFields,
  reasoningExcluded,
} from '../../../shared/protocols/openai-chat/chat-request.ts';

/** A chat server that is neither OpenAI's own API nor OpenRouter, and OpenRouter, which reads its own `reasoning` object. */
const OTHER_SERVER = { maxCompletionTokens: false, reasoningObject: false };
const OPENROUTER = { maxCompletionTokens: false, reasoningObject: true };

function refusal(body: string): GatewayError {
  try {
    parseChatCompletionRequest(body);
  } catch (error) {
    if (error instanceof GatewayError) return error;
    throw error;
  }
  throw new Error(`expected ${body} to be refused`);
}

const messages = [{ role: 'user', content: 'Hello' }];

describe('parseChatCompletionRequest', () => {
  it('parses a minimal request', () => {
    const request = parseChatCompletionRequest(JSON.stringify({ model: 'mock/echo', messages }));
    expect(request.model).toBe('mock/echo');
    expect(request.messages).toEqual(messages);
    expect(request.stream).toBeUndefined();
  });

  it('keeps fields the gateway does not know, for the upstream', () => {
    const request = parseChatCompletionRequest(
      JSON.stringify({ model: 'm', messages, temperature: 0.2, reasoning_effort: 'low', tools: [{ type: 'function' }] }),
    );
    expect(request).toMatchObject({ temperature: 0.2, reasoning_effort: 'low', tools: [{ type: 'function' }] });
  });

  it('reads stream and stream_options.include_usage', () => {
    const request = parseChatCompletionRequest(
      JSON.stringify({ model: 'm', messages, stream: true, stream_options: { include_usage: true } }),
    );
    expect(request.stream).toBe(true);
    expect(request.stream_options?.include_usage).toBe(true);
  });

  it('accepts null for stream and stream_options as OpenAI does', () => {
    const request = parseChatCompletionRequest(JSON.stringify({ model: 'm', messages, stream: null, stream_options: null }));
    expect(request.stream).toBeNull();
  });

  it.each(['{"model": "m", ', 'not json', ''])('refuses the invalid JSON %j with 400 invalid_json', (body) => {
    const error = refusal(body);
    expect(error.status).toBe(400);
    expect(error.code).toBe('invalid_json');
    expect(error.message).toBe('The request body is not valid JSON.');
  });

  it.each(['[]', '"text"', '42', 'null'])('refuses the JSON value %s that is not an object with 400 invalid_json', (body) => {
    const error = refusal(body);
    expect(error.status).toBe(400);
    expect(error.code).toBe('invalid_json');
    expect(error.message).toBe('The request body must be a JSON object.');
  });

  it.each([
    ['absent', { messages }],
    ['null', { model: null, messages }],
    ['empty', { model: '', messages }],
  ])('refuses a request whose model is %s with 400 missing_model on param model', (_what, body) => {
    const error = refusal(JSON.stringify(body));
    expect(error.status).toBe(400);
    expect(error.code).toBe('missing_model');
    expect(error.param).toBe('model');
    expect(error.message).toBe('The request must name a model: "model" is required (or "models", whose first entry is the model).');
  });

  it("takes the first of `models` as the model when there is no `model` (OpenRouter's form), `models` as sent", () => {
    const request = parseChatCompletionRequest(JSON.stringify({ models: ['openai/gpt-4o-mini', 'groq/llama-3.1-8b-instant'], messages }));
    expect(request.model).toBe('openai/gpt-4o-mini');
    expect(request.models).toEqual(['openai/gpt-4o-mini', 'groq/llama-3.1-8b-instant']);
    expect(parseChatCompletionRequest(JSON.stringify({ model: null, models: ['a'], messages })).model).toBe('a');
  });

  it.each([
    ['empty', []],
    ['led by an empty name', ['', 'b']],
    ['led by a number', [1, 'b']],
    ['not a list', 'a'],
  ])('refuses a request without `model` whose `models` is %s with 400 missing_model', (_what, models) => {
    expect(refusal(JSON.stringify({ models, messages }))).toMatchObject({ status: 400, code: 'missing_model', param: 'model' });
  });

  it("names a later entry of `models` where it stands when it is not a model name", () => {
    expect(refusal(JSON.stringify({ models: ['a', 7], messages }))).toMatchObject({ code: 'invalid_request_body', param: 'models.1' });
  });

  it('refuses a model that is not a string with 400 invalid_request_body on param model', () => {
    const error = refusal(JSON.stringify({ model: 42, messages }));
    expect(error.status).toBe(400);
    expect(error.code).toBe('invalid_request_body');
    expect(error.param).toBe('model');
    expect(error.message).toMatch(/^Invalid field "model": /);
  });

  it('refuses missing messages with 400 invalid_request_body on param messages', () => {
    const error = refusal(JSON.stringify({ model: 'm' }));
    expect(error.code).toBe('invalid_request_body');
    expect(error.param).toBe('messages');
  });

  it('names the nested field that is wrong', () => {
    const error = refusal(JSON.stringify({ model: 'm', messages, stream_options: { include_usage: 'yes' } }));
    expect(error.code).toBe('invalid_request_body');
    expect(error.param).toBe('stream_options.include_usage');
  });

  it('refuses transforms that are not a list of transform names, naming the field', () => {
    const error = refusal(JSON.stringify({ model: 'm', messages, transforms: 'middle-out' }));
    expect([error.status, error.code, error.param]).toEqual([400, 'invalid_request_body', 'transforms']);
  });

  it('refuses a route other than "fallback"', () => {
    const error = refusal(JSON.stringify({ model: 'm', messages, route: 'cheapest' }));
    expect(error.code).toBe('invalid_request_body');
    expect(error.param).toBe('route');
  });

  it('refuses an empty entry in models', () => {
    expect(refusal(JSON.stringify({ model: 'm', messages, models: ['a/b', ''] })).param).toBe('models.1');
  });

  it.each([0, 129, 2.5, '2'])('refuses n = %j with 400 on param n: the balance reserves the output cap once per choice', (n) => {
    const error = refusal(JSON.stringify({ model: 'm', messages, n }));
    expect(error.code).toBe('invalid_request_body');
    expect(error.param).toBe('n');
  });

  it('accepts n from 1 to 128, and null', () => {
    expect(parseChatCompletionRequest(JSON.stringify({ model: 'm', messages, n: 128 })).n).toBe(128);
    expect(parseChatCompletionRequest(JSON.stringify({ model: 'm', messages, n: null })).n).toBeNull();
  });
});

describe('buildUpstreamChatBody', () => {
  it("sends max_tokens as max_completion_tokens to OpenAI's own API, whose reasoning models refuse max_tokens, and as it came elsewhere", () => {
    const request = parseChatCompletionRequest(JSON.stringify({ model: 'o3', messages, max_tokens: 2000 }));
    expect(JSON.parse(buildUpstreamChatBody(request, 'o3', { maxCompletionTokens: true, reasoningObject: false }))).toEqual({ model: 'o3', messages, max_completion_tokens: 2000 });
    expect(JSON.parse(buildUpstreamChatBody(request, 'openai/o3', OTHER_SERVER))).toEqual({ model: 'openai/o3', messages, max_tokens: 2000 });
    const both = parseChatCompletionRequest(JSON.stringify({ model: 'o3', messages, max_tokens: 2000, max_completion_tokens: 3000 }));
    expect(JSON.parse(buildUpstreamChatBody(both, 'o3', { maxCompletionTokens: true, reasoningObject: false }))).toEqual({ model: 'o3', messages, max_tokens: 2000, max_completion_tokens: 3000 });
  });

  it('replaces the model with the upstream model id', () => {
    const request = parseChatCompletionRequest(JSON.stringify({ model: 'fast', messages }));
    expect(JSON.parse(buildUpstreamChatBody(request, 'gpt-4o-mini', OTHER_SERVER))).toEqual({ model: 'gpt-4o-mini', messages });
  });

  it("strips the gateway-only fields models, route, provider, usage and OpenRouter's transforms", () => {
    expect(gatewayOnlyFields).toEqual(['models', 'route', 'provider', 'usage', 'transforms']);
    const request = parseChatCompletionRequest(
      JSON.stringify({
        model: 'openai/gpt-4o-mini',
        messages,
        models: ['openai/gpt-4o-mini', 'groq/llama-3.1-8b-instant'],
        route: 'fallback',
        provider: { order: ['openai'] },
        usage: { include: true },
        transforms: ['middle-out'],
      }),
    );
    const upstream: unknown = JSON.parse(buildUpstreamChatBody(request, 'gpt-4o-mini', OTHER_SERVER));
    expect(upstream).toEqual({ model: 'gpt-4o-mini', messages });
  });

  it("sends OpenRouter an effort-only reasoning as reasoning_effort, which it reads alike, and the rest of it as sent", () => {
    const upstream = (reasoning: unknown, extra: Record<string, unknown> = {}) =>
      JSON.parse(buildUpstreamChatBody(parseChatCompletionRequest(JSON.stringify({ model: 'm', messages, reasoning, ...extra })), 'up', OPENROUTER)) as Record<string, unknown>;
    expect(upstream({ effort: 'high' })).toEqual({ model: 'up', messages, reasoning_effort: 'high' });
    expect(upstream({ effort: 'low', enabled: true })).toEqual({ model: 'up', messages, reasoning_effort: 'low' });
    // What has no reasoning_effort form goes as sent, for OpenRouter to read; so does a request that sets both.
    expect(upstream({ max_tokens: 2000 })).toEqual({ model: 'up', messages, reasoning: { max_tokens: 2000 } });
    expect(upstream({ effort: 'high', exclude: true })).toEqual({ model: 'up', messages, reasoning: { effort: 'high', exclude: true } });
    expect(upstream({ effort: 'high' }, { reasoning_effort: 'low' })).toEqual({ model: 'up', messages, reasoning: { effort: 'high' }, reasoning_effort: 'low' });
  });

  it("sends any other provider OpenRouter's reasoning as reasoning_effort only, a budget as the nearest effort (OpenAI refuses the object)", () => {
    const upstream = (reasoning: unknown, extra: Record<string, unknown> = {}) =>
      JSON.parse(buildUpstreamChatBody(parseChatCompletionRequest(JSON.stringify({ model: 'm', messages, reasoning, ...extra })), 'up', OTHER_SERVER)) as Record<string, unknown>;
    expect(upstream({ effort: 'high', exclude: true })).toEqual({ model: 'up', messages, reasoning_effort: 'high' });
    expect(upstream({ max_tokens: 2000 })).toEqual({ model: 'up', messages, reasoning_effort: 'low' });
    expect(upstream({ max_tokens: 10000 })).toEqual({ model: 'up', messages, reasoning_effort: 'high' });
    // The client's own reasoning_effort wins; `enabled` alone and `exclude` alone leave the model its default.
    expect(upstream({ effort: 'high' }, { reasoning_effort: 'low' })).toEqual({ model: 'up', messages, reasoning_effort: 'low' });
    expect(upstream({ enabled: false })).toEqual({ model: 'up', messages });
    expect(upstream({ exclude: true })).toEqual({ model: 'up', messages });
  });

  it("sends OpenRouter's reasoning to no model of OpenAI's own API that does not reason (a 400 there), and a client's own reasoning_effort as sent", () => {
    const upstream = (extra: Record<string, unknown>, reasoningModel: boolean) =>
      JSON.parse(buildUpstreamChatBody(parseChatCompletionRequest(JSON.stringify({ model: 'm', messages, ...extra })), 'up', { maxCompletionTokens: true, reasoningObject: false, reasoningModel })) as Record<string, unknown>;
    expect(upstream({ reasoning: { effort: 'high' } }, false)).toEqual({ model: 'up', messages });
    expect(upstream({ reasoning: { effort: 'high' } }, true)).toEqual({ model: 'up', messages, reasoning_effort: 'high' });
    expect(upstream({ reasoning_effort: 'low' }, false)).toEqual({ model: 'up', messages, reasoning_effort: 'low' });
    // Another OpenAI-compatible server's model may reason whatever its id: it gets the effort.
    expect(JSON.parse(buildUpstreamChatBody(parseChatCompletionRequest(JSON.stringify({ model: 'm', messages, reasoning: { effort: 'high' } })), 'up', { ...OTHER_SERVER, reasoningModel: false }))).toEqual({ model: 'up', messages, reasoning_effort: 'high' });
  });

  it("applies OpenRouter's legacy include_reasoning itself and never sends it (OpenAI refuses the field)", () => {
    const request = (extra: Record<string, unknown>) => parseChatCompletionRequest(JSON.stringify({ model: 'm', messages, ...extra }));
    expect(JSON.parse(buildUpstreamChatBody(request({ include_reasoning: false }), 'up', OTHER_SERVER))).toEqual({ model: 'up', messages });
    expect(JSON.parse(buildUpstreamChatBody(request({ include_reasoning: true, reasoning_effort: 'low' }), 'up', OTHER_SERVER))).toEqual({ model: 'up', messages, reasoning_effort: 'low' });
    // false hides the reasoning (as reasoning.exclude does), unless reasoning.exclude says otherwise.
    expect(reasoningExcluded(request({ include_reasoning: false }))).toBe(true);
    expect(reasoningExcluded(request({ include_reasoning: true }))).toBe(false);
    expect(reasoningExcluded(request({ include_reasoning: false, reasoning: { exclude: false } }))).toBe(false);
    expect(reasoningExcluded(request({ include_reasoning: true, reasoning: { exclude: true } }))).toBe(true);
    expect(refusal(JSON.stringify({ model: 'm', messages, include_reasoning: 'no' })).message).toContain('include_reasoning');
  });

  it('keeps every unknown field and its value', () => {
    const request = parseChatCompletionRequest(
      JSON.stringify({ model: 'm', messages, stream: true, stream_options: { include_usage: true, extra: 1 }, seed: 7, user: 'u-1' }),
    );
    expect(JSON.parse(buildUpstreamChatBody(request, 'up', OTHER_SERVER))).toEqual({
      model: 'up',
      messages,
      stream: true,
      stream_options: { include_usage: true, extra: 1 },
      seed: 7,
      user: 'u-1',
    });
  });

  it('does not change the parsed request it was given', () => {
    const request = parseChatCompletionRequest(JSON.stringify({ model: 'alias', messages, route: 'fallback' }));
    buildUpstreamChatBody(request, 'real', OTHER_SERVER);
    expect(request.model).toBe('alias');
    expect(request.route).toBe('fallback');
  });

  it('passes any extra fields through and never sends a routing-only field', () => {
    const extraKey = fc
      .string({ minLength: 1, maxLength: 12 })
      .filter((key) => !['model', 'messages', 'stream', 'stream_options', 'n', ...gatewayOnlyFields, '__proto__'].includes(key));
    fc.assert(
      fc.property(fc.dictionary(extraKey, fc.jsonValue()), fc.string({ minLength: 1 }), (extra, upstreamModel) => {
        const body = { ...extra, model: 'client/model', messages, route: 'fallback', models: ['x/y'], provider: {} };
        const upstream = JSON.parse(buildUpstreamChatBody(parseChatCompletionRequest(JSON.stringify(body)), upstreamModel, OTHER_SERVER)) as Record<
          string,
          unknown
        >;
        expect(upstream).toEqual(JSON.parse(JSON.stringify({ ...extra, model: upstreamModel, messages })));
        for (const field of gatewayOnlyFields) expect(field in upstream).toBe(false);
      }),
    );
  });
});
