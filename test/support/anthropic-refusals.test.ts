import { describe, expect, it } from 'vitest';
import { refusalOfAnthropic } from './anthropic-refusals.ts';

const base = { model: 'claude-sonnet-4-5', max_tokens: 1000, messages: [{ role: 'user', content: 'Hi' }] };
const call = { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'f', input: {} }] };
const result = { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'ok' }] };
const messageOf = (refusal: unknown) => (refusal as { error: { message: string } } | undefined)?.error.message;

describe('the fake Anthropic upstream refuses what Anthropic refuses', () => {
  it('takes a plain request and a complete tool round trip', () => {
    expect(refusalOfAnthropic(base)).toBeUndefined();
    expect(refusalOfAnthropic({ ...base, messages: [base.messages[0], call, result], tools: [{ name: 'f', input_schema: { type: 'object' } }] })).toBeUndefined();
  });

  it.each<[string, Record<string, unknown>, RegExp]>([
    ['a field it does not take', { ...base, n: 2 }, /n: Extra inputs/],
    ['an assistant turn first', { ...base, messages: [{ role: 'assistant', content: 'Hello!' }, ...base.messages] }, /first message must use the "user" role/],
    ['no turn at all', { ...base, messages: [] }, /at least one message/],
    ['no max_tokens', { ...base, max_tokens: undefined }, /max_tokens/],
    ['an empty text block', { ...base, messages: [{ role: 'user', content: [{ type: 'text', text: '' }] }] }, /must be non-empty/],
    ['a whitespace-only turn', { ...base, messages: [{ role: 'user', content: '  ' }] }, /non-whitespace/],
    ['a prefill ending in whitespace', { ...base, messages: [base.messages[0], { role: 'assistant', content: 'Hi ' }] }, /trailing whitespace/],
    ['a call without its result', { ...base, messages: [base.messages[0], call, { role: 'user', content: 'go on' }] }, /without `tool_result`/],
    ['a result without its call', { ...base, messages: [result] }, /unexpected `tool_use_id`/],
    ['a tool without an object schema', { ...base, tools: [{ name: 'f', input_schema: {} }] }, /input_schema.type/],
    ['a tool name with a dot', { ...base, tools: [{ name: 'a.b', input_schema: { type: 'object' } }] }, /should match pattern/],
    ['tool_choice without tools', { ...base, tool_choice: { type: 'auto' } }, /only be specified while providing tools/],
    ['temperature and top_p on Sonnet 4.5', { ...base, temperature: 0.5, top_p: 0.9 }, /cannot both be specified/],
    ['temperature on Opus 4.7', { ...base, model: 'claude-opus-4-7', temperature: 0.5 }, /deprecated/],
    ['a thinking budget on Opus 4.7', { ...base, model: 'claude-opus-4-7', thinking: { type: 'enabled', budget_tokens: 2000 }, max_tokens: 4000 }, /not supported for this model/],
    ['a budget not below max_tokens', { ...base, thinking: { type: 'enabled', budget_tokens: 2000 } }, /greater than `thinking.budget_tokens`/],
    ['thinking with a temperature', { ...base, thinking: { type: 'adaptive' }, temperature: 0.5 }, /only be set to 1/],
    ['thinking with a forced tool', { ...base, thinking: { type: 'adaptive' }, tools: [{ name: 'f', input_schema: { type: 'object' } }], tool_choice: { type: 'any' } }, /forces tool use/],
    ['a budget in a tool loop without signed thinking', { ...base, max_tokens: 4000, thinking: { type: 'enabled', budget_tokens: 2000 }, messages: [base.messages[0], call, result], tools: [{ name: 'f', input_schema: { type: 'object' } }] }, /must start with a thinking block/],
    ['five cache marks', { ...base, system: Array.from({ length: 5 }, () => ({ type: 'text', text: 's', cache_control: { type: 'ephemeral' } })) }, /maximum of 4 blocks/],
    ['structured output on a model without it', { ...base, model: 'claude-sonnet-4-20250514', output_config: { format: { type: 'json_schema', schema: { type: 'object', properties: {}, additionalProperties: false } } } }, /does not support output format/],
    ['a structured-output object left open', { ...base, output_config: { format: { type: 'json_schema', schema: { type: 'object', properties: {} } } } }, /additionalProperties/],
    ['a structured-output bound', { ...base, output_config: { format: { type: 'json_schema', schema: { type: 'object', properties: { n: { type: 'integer', minimum: 0 } }, additionalProperties: false } } } }, /'minimum' is not supported/],
    ['a long end-user id', { ...base, metadata: { user_id: 'u'.repeat(257) } }, /at most 256/],
  ])('refuses %s', (_what, body, message) => {
    expect(messageOf(refusalOfAnthropic(body))).toMatch(message);
  });
});
