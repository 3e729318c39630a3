import OpenAI from 'openai';
import { zodResponseFormat } from 'openai/helpers/zod';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { createMockProviderFetch } from '../../../shared/providers/mock/mock-provider-fetch.ts';
import { jsonExample } from '../../../shared/providers/mock/mock-json-example.ts';

const mock = createMockProviderFetch({ wordDelayMs: 0, now: () => 1_700_000_000_000 });
const client = new OpenAI({ apiKey: 'unused', baseURL: 'mock://offline/v1', fetch: (url, init) => mock(String(url), init ?? {}) });

describe('the mock answering structured outputs', () => {
  it("answers a zod response format with JSON the SDK's parse() accepts: nested objects, arrays, enums, nullables", async () => {
    const Event = z.object({
      name: z.string(),
      when: z.object({ day: z.number().int(), month: z.enum(['jan', 'feb']) }),
      guests: z.array(z.string()),
      notes: z.string().nullable(),
      confirmed: z.boolean(),
    });
    const completion = await client.chat.completions.parse({ model: 'echo', messages: [{ role: 'user', content: 'Plan it' }], response_format: zodResponseFormat(Event, 'event') });
    expect(completion.choices[0]?.message.parsed).toEqual({ name: 'example', when: { day: 0, month: 'jan' }, guests: [], notes: 'example', confirmed: false });
  });

  it('answers JSON mode with a JSON object', async () => {
    const completion = await client.chat.completions.create({ model: 'echo', messages: [{ role: 'user', content: 'Hi' }], response_format: { type: 'json_object' } });
    expect(JSON.parse(completion.choices[0]?.message.content ?? '')).toEqual({ reply: '[offline mock echo] You said: Hi' });
  });
});

describe('jsonExample', () => {
  it('follows $ref into $defs and stops at a recursive one', () => {
    const tree = { $ref: '#/$defs/Node', $defs: { Node: { type: 'object', properties: { label: { type: 'string' }, child: { $ref: '#/$defs/Node' } }, required: ['label', 'child'] } } };
    const example = jsonExample(tree) as Record<string, unknown>;
    expect(example.label).toBe('example');
    expect(typeof example.child).toBe('object');
  });

  it('takes const, the first anyOf branch and null by type', () => {
    expect(jsonExample({ const: 'fixed' })).toBe('fixed');
    expect(jsonExample({ anyOf: [{ type: 'integer' }, { type: 'null' }] })).toBe(0);
    expect(jsonExample({ type: ['null', 'string'] })).toBeNull();
  });
});
