import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../../shared/core/errors.ts';
import {
  buildUpstreamMessagesBody,
  messagesGatewayOnlyFields,
  parseMessagesRequest,
} from '../../../shared/protocols/anthropic-messages/messages-request.ts';
import { recordedRequestBody } from './anthropic-fixtures.ts';

function refusal(body: string): GatewayError {
  try {
    parseMessagesRequest(body);
  } catch (error) {
    if (error instanceof GatewayError) return error;
    throw error;
  }
  throw new Error(`expected ${body} to be refused`);
}

const messages = [{ role: 'user', content: 'Hello' }];
const recordedWithThinkingAndTools = 'messages-stream-thinking-then-tool-use.sse';

describe('parseMessagesRequest', () => {
  it('reads a recorded Claude request with thinking and tools', () => {
    const request = parseMessagesRequest(recordedRequestBody(recordedWithThinkingAndTools));
    expect(request).toMatchObject({
      model: 'claude-haiku-4-5-20251001',
      max_tokens: 64_000,
      stream: true,
      thinking: { type: 'enabled', budget_tokens: 1024, display: 'summarized' },
      tools: [{ name: 'fixed_version' }],
    });
  });

  it.each([
    ['a string', 'You are terse.'],
    ['text blocks with cache control', [{ type: 'text', text: 'You are terse.', cache_control: { type: 'ephemeral' } }]],
  ])('accepts a system prompt given as %s', (_shape, system) => {
    expect(parseMessagesRequest(JSON.stringify({ model: 'm', max_tokens: 10, messages, system })).system).toEqual(system);
  });

  it('reads a count_tokens body, which has no max_tokens', () => {
    expect(parseMessagesRequest(JSON.stringify({ model: 'm', messages })).max_tokens).toBeUndefined();
  });

  it('folds the fallbacks alias, given as names or {model} entries, into models', () => {
    const request = parseMessagesRequest(
      JSON.stringify({ model: 'a', messages, fallbacks: ['anthropic/claude-haiku-4-5', { model: 'openai/gpt-4.1-mini' }] }),
    );
    expect(request.models).toEqual(['anthropic/claude-haiku-4-5', 'openai/gpt-4.1-mini']);
  });

  it('keeps models as sent when there is no fallbacks alias', () => {
    expect(parseMessagesRequest(JSON.stringify({ model: 'a', messages, models: ['b'], route: 'fallback' })).models).toEqual(['b']);
  });

  it('refuses models and fallbacks together with 400 conflicting_fields', () => {
    const error = refusal(JSON.stringify({ model: 'a', messages, models: ['b'], fallbacks: ['c'] }));
    expect(error).toMatchObject({ status: 400, code: 'conflicting_fields', param: 'fallbacks' });
  });

  it.each(['{"model": "m", ', 'not json', ''])('refuses the invalid JSON %j with 400 invalid_json', (body) => {
    expect(refusal(body)).toMatchObject({ status: 400, code: 'invalid_json', message: 'The request body is not valid JSON.' });
  });

  it.each(['[]', '"text"', 'null'])('refuses the JSON value %s that is not an object with 400 invalid_json', (body) => {
    expect(refusal(body)).toMatchObject({ status: 400, code: 'invalid_json' });
  });

  it("takes the first of `models` as the model when there is no `model` (OpenRouter's form)", () => {
    const request = parseMessagesRequest(JSON.stringify({ models: ['claude-haiku-4-5', 'gpt-4o-mini'], max_tokens: 5, messages }));
    expect([request.model, request.models]).toEqual(['claude-haiku-4-5', ['claude-haiku-4-5', 'gpt-4o-mini']]);
  });

  it.each([{}, { model: '' }, { model: null }])('refuses %j without a model with 400 missing_model', (body) => {
    expect(refusal(JSON.stringify({ ...body, messages }))).toMatchObject({ status: 400, code: 'missing_model', param: 'model' });
  });

  it.each([
    [{ model: 'm' }, 'messages'],
    [{ model: 'm', messages, stream: 'yes' }, 'stream'],
    [{ model: 'm', messages, max_tokens: 'many' }, 'max_tokens'],
    [{ model: 'm', messages, system: 42 }, 'system'],
    [{ model: 'm', messages, fallbacks: [{ name: 'x' }] }, 'fallbacks.0'],
  ])('refuses %j with 400 naming the field %s', (body, field) => {
    expect(refusal(JSON.stringify(body))).toMatchObject({ status: 400, code: 'invalid_request_body', param: field });
  });
});

describe('buildUpstreamMessagesBody', () => {
  it('sets the upstream model id and sends every other field of a recorded request as it was', () => {
    const body = recordedRequestBody(recordedWithThinkingAndTools);
    const upstream: unknown = JSON.parse(buildUpstreamMessagesBody(parseMessagesRequest(body), 'claude-haiku-4-5-20251001-v1'));
    expect(upstream).toEqual({ ...(JSON.parse(body) as object), model: 'claude-haiku-4-5-20251001-v1' });
  });

  it("removes the gateway-only fields, fallbacks alias, usage switch and OpenRouter's transforms included", () => {
    const request = parseMessagesRequest(
      JSON.stringify({ model: 'a', max_tokens: 5, messages, fallbacks: [{ model: 'b' }], route: 'fallback', provider: { order: ['x'] }, usage: { include: true }, transforms: ['middle-out'] }),
    );
    expect(JSON.parse(buildUpstreamMessagesBody(request, 'up'))).toEqual({ model: 'up', max_tokens: 5, messages });
    expect(messagesGatewayOnlyFields).toEqual(['models', 'fallbacks', 'route', 'provider', 'usage', 'transforms']);
  });

  it('refuses transforms that are not a list of transform names, naming the field', () => {
    const error = refusal(JSON.stringify({ model: 'a', max_tokens: 5, messages, transforms: [1] }));
    expect([error.status, error.code, error.param]).toEqual([400, 'invalid_request_body', 'transforms.0']);
  });

  it('keeps fields and content blocks the gateway does not know, values untouched', () => {
    const known = new Set(['model', 'messages', ...messagesGatewayOnlyFields, '__proto__']);
    const extraFields = fc.dictionary(fc.string({ minLength: 1 }).filter((key) => !known.has(key)), fc.jsonValue());
    fc.assert(
      fc.property(extraFields, fc.array(fc.jsonValue(), { maxLength: 3 }), (extra, blocks) => {
        const client = { ...extra, model: 'client-model', messages: [{ role: 'user', content: blocks }] };
        let request;
        try {
          request = parseMessagesRequest(JSON.stringify(client));
        } catch {
          // A known field such as "stream" given a wrong type is refused, which is right; nothing to compare.
          return;
        }
        const expected: unknown = JSON.parse(JSON.stringify({ ...client, model: 'upstream-model' }));
        expect(JSON.parse(buildUpstreamMessagesBody(request, 'upstream-model'))).toEqual(expected);
      }),
    );
  });
});
