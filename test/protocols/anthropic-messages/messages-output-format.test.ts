import { describe, expect, it } from 'vitest';
import { writeMessagesRequest } from '../../../shared/protocols/anthropic-messages/messages-request-writer.ts';
import { readChatRequest } from '../../../shared/protocols/openai-chat/chat-request-reader.ts';
import { anthropicMessagesProtocol } from '../../../shared/protocols/anthropic-messages/anthropic-messages-protocol.ts';
import { openAiChatProtocol } from '../../../shared/protocols/openai-chat/openai-chat-protocol.ts';
import { openAiResponsesProtocol } from '../../../shared/protocols/openai-responses/openai-responses-protocol.ts';
import { NO_EXTRA_FEATURES, OPENAI_FEATURES } from '../../support/upstream-features.ts';

/** A chat request with an answer format, as the Messages writer sends it to `upstreamModel`. */
function written(responseFormat: Record<string, unknown>, upstreamModel: string, extra: Record<string, unknown> = {}) {
  const request = readChatRequest({ model: 'claude', messages: [{ role: 'user', content: 'Name a city' }], response_format: responseFormat, ...extra });
  return { body: writeMessagesRequest(request, upstreamModel, NO_EXTRA_FEATURES), dropped: request.dropped.list() };
}

const city = {
  type: 'json_schema',
  json_schema: { name: 'city', strict: true, schema: { type: 'object', properties: { name: { type: 'string' }, population: { type: 'integer', minimum: 0 } }, required: ['name', 'population'], additionalProperties: false } },
};

describe('writeMessagesRequest structured outputs', () => {
  it.each(['claude-sonnet-4-5', 'claude-haiku-4-5-20251001', 'claude-opus-4-7', 'us.anthropic.claude-opus-4-6-v1', 'claude-fable-5-1'])(
    "sends %s a JSON Schema answer format as output_config.format, bounds Claude cannot enforce moved into the description",
    (model) => {
      const { body, dropped } = written(city, model);
      expect(body.output_config).toEqual({
        format: {
          type: 'json_schema',
          schema: { type: 'object', properties: { name: { type: 'string' }, population: { type: 'integer', description: '{minimum: 0}' } }, required: ['name', 'population'], additionalProperties: false },
        },
      });
      expect(dropped).toEqual([]);
    },
  );

  it('closes every object of a schema that left them open, as Claude requires', () => {
    const open = { type: 'json_schema', json_schema: { name: 'x', schema: { type: 'object', properties: { tags: { type: 'array', items: { type: 'object', properties: { label: { type: 'string' } } } } } } } };
    const schema = (written(open, 'claude-sonnet-4-5').body.output_config as { format: { schema: { additionalProperties: unknown; properties: { tags: { items: { additionalProperties: unknown } } } } } }).format.schema;
    expect(schema.additionalProperties).toBe(false);
    expect(schema.properties.tags.items.additionalProperties).toBe(false);
  });

  it('keeps the effort of adaptive thinking beside the format', () => {
    expect(written(city, 'claude-opus-4-7', { reasoning_effort: 'low' }).body.output_config).toMatchObject({ effort: 'low', format: { type: 'json_schema' } });
  });

  it.each([
    ['JSON mode, which has no schema', { type: 'json_object' }, 'claude-sonnet-4-5'],
    ['a model without structured outputs', city, 'claude-sonnet-4-20250514'],
    ['an older Claude', city, 'claude-3-7-sonnet-20250219'],
    ["another vendor's Anthropic-compatible model", city, 'glm-4.6'],
    ['a schema with a property of no type', { type: 'json_schema', json_schema: { name: 'x', schema: { type: 'object', properties: { anything: { description: 'a value of whatever kind' } } } } }, 'claude-sonnet-4-5'],
  ])('leaves out %s and names response_format as dropped', (_what, format, model) => {
    const { body, dropped } = written(format, model);
    expect(body).not.toHaveProperty('output_config');
    expect(dropped).toEqual(['response_format']);
  });
});

describe("An Anthropic client's structured outputs sent to OpenAI's protocols", () => {
  const schema = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'], additionalProperties: false };
  const messagesBody = (extra: Record<string, unknown>) =>
    anthropicMessagesProtocol.readRequest({ model: 'gpt-5', max_tokens: 500, messages: [{ role: 'user', content: 'Name a city' }], ...extra });

  it('goes to chat as a json_schema response_format, and beside an effort', () => {
    const canonical = messagesBody({ output_config: { effort: 'low', format: { type: 'json_schema', schema } } });
    const body = openAiChatProtocol.writeRequest(canonical, 'gpt-5', OPENAI_FEATURES);
    expect(body.response_format).toEqual({ type: 'json_schema', json_schema: { name: 'response', schema } });
    expect(body.reasoning_effort).toBe('low');
    expect(canonical.dropped.list()).toEqual([]);
  });

  it("goes to the Responses API as text.format, from the beta's output_format too", () => {
    const body = openAiResponsesProtocol.writeRequest(messagesBody({ output_format: { type: 'json_schema', schema } }), 'gpt-5', OPENAI_FEATURES);
    expect(body.text).toEqual({ format: { type: 'json_schema', name: 'response', schema } });
  });

  it('names a format of another shape as dropped', () => {
    const canonical = messagesBody({ output_config: { format: { type: 'regex', pattern: '.*' } } });
    expect(openAiChatProtocol.writeRequest(canonical, 'gpt-5', OPENAI_FEATURES)).not.toHaveProperty('response_format');
    expect(canonical.dropped.list()).toEqual(['output_config.format']);
  });
});
