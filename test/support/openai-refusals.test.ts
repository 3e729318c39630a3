import { describe, expect, it } from 'vitest';
import { refusalOfOpenAi, refusalOfOpenAiResponses } from './openai-refusals.ts';

const base = { model: 'gpt-4.1', messages: [{ role: 'user', content: 'Hi' }] };
const call = { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'f', arguments: '{}' } }] };
const messageOf = (refusal: unknown) => (refusal as { error: { message: string } } | undefined)?.error.message;

describe('the fake OpenAI upstream refuses what OpenAI refuses', () => {
  it('takes a plain request and a complete tool round trip', () => {
    expect(refusalOfOpenAi(base)).toBeUndefined();
    expect(refusalOfOpenAi({ ...base, messages: [base.messages[0], call, { role: 'tool', tool_call_id: 'call_1', content: 'ok' }] })).toBeUndefined();
  });

  it.each<[string, Record<string, unknown>, RegExp]>([
    ['a field it does not take', { ...base, top_k: 40 }, /Unrecognized request argument supplied: top_k/],
    ['a cap above the model', { ...base, model: 'gpt-4o-mini', max_tokens: 32_000 }, /max_tokens is too large/],
    ['max_tokens on a reasoning model', { ...base, model: 'o3', max_tokens: 100 }, /max_tokens/],
    ['a temperature on a reasoning model', { ...base, model: 'gpt-5', temperature: 0.2 }, /Only the default \(1\) value/],
    ['stop on a reasoning model', { ...base, model: 'o3', stop: ['END'] }, /'stop' is not supported/],
    ['reasoning_effort on another model', { ...base, reasoning_effort: 'low' }, /'reasoning_effort' is not supported/],
    ['five stop sequences', { ...base, stop: ['a', 'b', 'c', 'd', 'e'] }, /maximum length 4/],
    ['a long user', { ...base, user: 'u'.repeat(65) }, /maximum length 64/],
    ['a tool name with a dot', { ...base, tools: [{ type: 'function', function: { name: 'a.b' } }] }, /does not match pattern/],
    ['calls without their results', { ...base, messages: [base.messages[0], call, { role: 'user', content: 'go on' }] }, /did not have response messages: call_1/],
    ['a result without its call', { ...base, messages: [base.messages[0], { role: 'tool', tool_call_id: 'call_1', content: 'ok' }] }, /must be a response to a preceeding message/],
    ['an inline file without its name', { ...base, messages: [{ role: 'user', content: [{ type: 'file', file: { file_data: 'data:application/pdf;base64,JVBE' } }] }] }, /file\.file_id/],
    ['a call id over 40 characters', { ...base, messages: [base.messages[0], { ...call, tool_calls: [{ ...call.tool_calls[0], id: 'c'.repeat(41) }] }] }, /maximum length 40/],
  ])('refuses %s', (_what, body, message) => {
    expect(messageOf(refusalOfOpenAi(body))).toMatch(message);
  });
});

describe('the fake Responses API refuses what OpenAI refuses', () => {
  const input = [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Hi' }] }];

  it('takes a plain request and a complete call round trip', () => {
    expect(refusalOfOpenAiResponses({ model: 'gpt-5', input: 'Hi', max_output_tokens: 16 })).toBeUndefined();
    expect(refusalOfOpenAiResponses({ model: 'gpt-5', input: [...input, { type: 'function_call', call_id: 'c1', name: 'f', arguments: '{}' }, { type: 'function_call_output', call_id: 'c1', output: 'ok' }] })).toBeUndefined();
  });

  it.each<[string, Record<string, unknown>, RegExp]>([
    ['a field it does not take', { model: 'gpt-5', input: 'Hi', messages: [] }, /Unknown parameter: 'messages'/],
    ['a cap under 16', { model: 'gpt-5', input: 'Hi', max_output_tokens: 5 }, /Expected a value >= 16/],
    ['a temperature on a reasoning model', { model: 'gpt-5', input: 'Hi', temperature: 0.2 }, /'temperature' is not supported/],
    ['an output without its call', { model: 'gpt-5', input: [...input, { type: 'function_call_output', call_id: 'c1', output: 'ok' }] }, /No tool call found/],
    ['an inline file without its name', { model: 'gpt-5', input: [{ type: 'message', role: 'user', content: [{ type: 'input_file', file_data: 'data:application/pdf;base64,JVBE' }] }] }, /Missing required parameter/],
  ])('refuses %s', (_what, body, message) => {
    expect(messageOf(refusalOfOpenAiResponses(body))).toMatch(message);
  });
});
