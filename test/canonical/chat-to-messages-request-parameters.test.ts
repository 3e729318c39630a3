import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../shared/core/errors.ts';
import { readChatRequest } from '../../shared/protocols/openai-chat/chat-request-reader.ts';
import { writeChatRequest } from '../../shared/protocols/openai-chat/chat-request-writer.ts';
import { writeResponsesRequest } from '../../shared/protocols/openai-responses/responses-request-writer.ts';
import { convertChatRequestToMessages } from './support/translate.ts';
import { NO_EXTRA_FEATURES, OPENAI_FEATURES } from '../support/upstream-features.ts';

const convert = (body: Record<string, unknown>, options: { defaultMaxTokens?: number } = {}) =>
  convertChatRequestToMessages({ model: 'claude-alias', ...body }, { upstreamModel: 'claude-sonnet-4-5-20250929', ...options });
const hello = [{ role: 'user', content: 'Hello' }];

describe('convertChatRequestToMessages: tools', () => {
  const tool = { type: 'function', function: { name: 'get_weather', description: 'Weather now', parameters: { type: 'object', properties: { city: { type: 'string' } } } } };

  it('sends function tools with parameters as input_schema and drops tool types it does not know', () => {
    const { body, droppedFields } = convert({ messages: hello, tools: [tool, { type: 'web_search' }] });
    expect(body.tools).toEqual([{ name: 'get_weather', description: 'Weather now', input_schema: { type: 'object', properties: { city: { type: 'string' } } } }]);
    expect(droppedFields).toEqual(['tools[].type=web_search']);
  });

  it('sends a custom tool as a tool taking its free text in one string property, spelling out its grammar', () => {
    const format = { type: 'grammar', syntax: 'lark', definition: 'start: "*** Begin Patch" /.+/' };
    const { body, droppedFields } = convert({ messages: hello, tools: [{ type: 'custom', custom: { name: 'apply_patch', description: 'Edit files', format } }] });
    expect(body.tools).toEqual([
      {
        name: 'apply_patch',
        description: 'Edit files',
        input_schema: {
          type: 'object',
          properties: { input: { type: 'string', description: `The tool's input as free text, following this lark grammar:\n${format.definition}` } },
          required: ['input'],
          additionalProperties: false,
        },
      },
    ]);
    expect(droppedFields).toEqual([]);
  });

  it.each([
    ['auto', { type: 'auto' }],
    ['none', { type: 'none' }],
    ['required', { type: 'any' }],
    [{ type: 'function', function: { name: 'get_weather' } }, { type: 'tool', name: 'get_weather' }],
  ])('maps tool_choice %j to %j', (choice, expected) => {
    expect(convert({ messages: hello, tools: [tool], tool_choice: choice }).body.tool_choice).toEqual(expected);
  });

  it('turns parallel_tool_calls: false into disable_parallel_tool_use', () => {
    expect(convert({ messages: hello, tools: [tool], parallel_tool_calls: false }).body.tool_choice).toEqual({ type: 'auto', disable_parallel_tool_use: true });
    expect(convert({ messages: hello, tools: [tool], tool_choice: 'required', parallel_tool_calls: false }).body.tool_choice).toEqual({ type: 'any', disable_parallel_tool_use: true });
  });

  it('sends no tool_choice without tools', () => {
    const { body, droppedFields } = convert({ messages: hello, tool_choice: 'required' });
    expect(body.tool_choice).toBeUndefined();
    expect(droppedFields).toEqual(['tool_choice']);
  });
});

describe('convertChatRequestToMessages: parameters', () => {
  it('turns stop, as a string or a list, into stop_sequences', () => {
    expect(convert({ messages: hello, stop: 'END' }).body.stop_sequences).toEqual(['END']);
    expect(convert({ messages: hello, stop: ['a', 'b'] }).body.stop_sequences).toEqual(['a', 'b']);
  });

  it('takes max_completion_tokens over max_tokens, and 4096 when neither is set', () => {
    expect(convert({ messages: hello, max_tokens: 100, max_completion_tokens: 200 }).body.max_tokens).toBe(200);
    expect(convert({ messages: hello, max_tokens: 100 }).body.max_tokens).toBe(100);
    expect(convert({ messages: hello }).body.max_tokens).toBe(4096);
  });

  it('passes temperature (capped at 1) or top_p (Sonnet 4.5 takes one of them), stream, and user as metadata.user_id', () => {
    const { body } = convert({ messages: hello, temperature: 0.3, stream: true, stream_options: { include_usage: true }, user: 'user-42' });
    expect(body).toMatchObject({ temperature: 0.3, stream: true, metadata: { user_id: 'user-42' } });
    expect(convert({ messages: hello, top_p: 0.9 }).body.top_p).toBe(0.9);
    expect(convert({ messages: hello, temperature: 1.7 }).body.temperature).toBe(1);
  });

  it.each([
    ['low', 1024, 4096],
    ['medium', 4096, 8192],
    ['high', 16384, 20480],
  ])('turns reasoning_effort %s into a %i-token thinking budget with max_tokens %i', (effort, budget, maxTokens) => {
    const { body } = convert({ messages: hello, reasoning_effort: effort });
    expect(body.thinking).toEqual({ type: 'enabled', budget_tokens: budget });
    expect(body.max_tokens).toBe(maxTokens);
  });

  it('keeps a max_tokens that already leaves room above the budget', () => {
    expect(convert({ messages: hello, reasoning_effort: 'medium', max_tokens: 10000 }).body.max_tokens).toBe(10000);
  });

  it('drops temperature and a top_p under 0.95 with thinking, which Anthropic refuses them with', () => {
    const { body, droppedFields } = convert({ messages: hello, reasoning_effort: 'low', temperature: 0.2, top_p: 0.5 });
    expect(body.temperature).toBeUndefined();
    expect(body.top_p).toBeUndefined();
    expect(droppedFields.sort()).toEqual(['temperature', 'top_p']);
  });

  it('sends no thinking for effort none, or when a tool is forced (Anthropic refuses thinking with it)', () => {
    expect(convert({ messages: hello, reasoning_effort: 'none' }).body.thinking).toBeUndefined();
    const tool = { type: 'function', function: { name: 'f' } };
    const forced = convert({ messages: hello, reasoning_effort: 'high', tools: [tool], tool_choice: 'required' });
    expect(forced.body.thinking).toBeUndefined();
    expect(forced.droppedFields).toEqual(['reasoning_effort']);
  });

  describe("OpenRouter's reasoning setting", () => {
    it('takes its effort as reasoning_effort, and its max_tokens as the thinking budget itself', () => {
      expect(convert({ messages: hello, reasoning: { effort: 'high' } }).body.thinking).toEqual({ type: 'enabled', budget_tokens: 16384 });
      const budgeted = convert({ messages: hello, reasoning: { max_tokens: 3000 } });
      expect(budgeted.body.thinking).toEqual({ type: 'enabled', budget_tokens: 3000 });
      expect(budgeted.body.max_tokens).toBeGreaterThan(3000);
      expect(budgeted.droppedFields).toEqual([]);
    });

    it('thinks at a medium effort for enabled alone, not at all for enabled false, and lets reasoning_effort win', () => {
      expect(convert({ messages: hello, reasoning: { enabled: true } }).body.thinking).toEqual({ type: 'enabled', budget_tokens: 4096 });
      expect(convert({ messages: hello, reasoning: { enabled: false, effort: 'high' } }).body.thinking).toBeUndefined();
      expect(convert({ messages: hello, reasoning_effort: 'low', reasoning: { effort: 'high' } }).body.thinking).toEqual({ type: 'enabled', budget_tokens: 1024 });
    });

    it('thinks when exclude is set (the answer hides the reasoning, not the request)', () => {
      const { body, droppedFields } = convert({ messages: hello, reasoning: { effort: 'low', exclude: true } });
      expect(body.thinking).toEqual({ type: 'enabled', budget_tokens: 1024 });
      expect(droppedFields).toEqual([]);
    });

    it('names a budget without an effort as dropped where the upstream protocol takes an effort only (chat, Responses)', () => {
      for (const write of [(canonical: ReturnType<typeof readChatRequest>) => writeChatRequest(canonical, 'gpt-5', OPENAI_FEATURES), (canonical: ReturnType<typeof readChatRequest>) => writeResponsesRequest(canonical, 'gpt-5', NO_EXTRA_FEATURES)]) {
        const budgetOnly = readChatRequest({ model: 'm', messages: hello, reasoning: { max_tokens: 2000 } });
        const body = write(budgetOnly) as Record<string, unknown>;
        expect(body.reasoning_effort ?? body.reasoning).toBeUndefined();
        expect(budgetOnly.dropped.list()).toEqual(['reasoning.max_tokens']);
        const withEffort = readChatRequest({ model: 'm', messages: hello, reasoning: { effort: 'low', max_tokens: 2000 } });
        write(withEffort);
        expect(withEffort.dropped.list()).toEqual([]);
      }
    });

    it('refuses a reasoning setting that is not an object with 400', () => {
      expect(() => convert({ messages: hello, reasoning: 'high' })).toThrow(GatewayError);
    });
  });

  describe('inside a tool-use loop', () => {
    const tools = [{ type: 'function', function: { name: 'read_file', parameters: { type: 'object', properties: { path: { type: 'string' } } } } }];
    const question = { role: 'user', content: 'What is in a.ts?' };
    const call = { role: 'assistant', content: 'Let me look.', tool_calls: [{ id: 'toolu_1', type: 'function', function: { name: 'read_file', arguments: '{"path":"a.ts"}' } }] };
    const result = { role: 'tool', tool_call_id: 'toolu_1', content: 'const a = 1;' };

    it('sends no thinking when the turn’s tool results come back without its signed thinking (Anthropic refuses thinking then)', () => {
      const { body, droppedFields } = convert({ messages: [question, call, result], tools, reasoning_effort: 'medium' });
      expect(body.thinking).toBeUndefined();
      expect(body.max_tokens).toBe(4096);
      expect(droppedFields).toEqual(['reasoning_effort']);
      const later = convert({ messages: [question, call, result, { ...call, content: null, tool_calls: [{ ...call.tool_calls[0], id: 'toolu_2' }] }, { ...result, tool_call_id: 'toolu_2' }], tools, reasoning_effort: 'medium' });
      expect(later.body.thinking).toBeUndefined();
    });

    it('thinks again once the user asks the next question', () => {
      const { body, droppedFields } = convert({ messages: [question, call, result, { role: 'assistant', content: 'It sets a to 1.' }, { role: 'user', content: 'And b.ts?' }], tools, reasoning_effort: 'medium' });
      expect(body.thinking).toEqual({ type: 'enabled', budget_tokens: 4096 });
      expect(droppedFields).toEqual([]);
    });
  });

  describe('on a model that takes adaptive thinking only (Claude Opus 4.7 and later)', () => {
    const onOpus47 = (body: Record<string, unknown>) => convertChatRequestToMessages({ model: 'claude-alias', ...body }, { upstreamModel: 'claude-opus-4-7' });

    it.each([
      ['minimal', 'low', 4096],
      ['low', 'low', 4096],
      ['medium', 'medium', 8192],
      ['high', 'high', 20480],
      ['xhigh', 'xhigh', 36864],
    ])('turns reasoning_effort %s into adaptive thinking at effort %s, no budget, max_tokens %i as with a budget', (effort, level, maxTokens) => {
      const { body, droppedFields } = onOpus47({ messages: hello, reasoning_effort: effort });
      expect(body.thinking).toEqual({ type: 'adaptive', display: 'summarized' });
      expect(body.output_config).toEqual({ effort: level });
      expect(body.max_tokens).toBe(maxTokens);
      expect(droppedFields).toEqual([]);
    });

    it('gives xhigh as max to Opus 4.6, which takes adaptive thinking but has no xhigh', () => {
      const { body } = convertChatRequestToMessages({ model: 'claude-alias', messages: hello, reasoning_effort: 'xhigh' }, { upstreamModel: 'claude-opus-4-6' });
      expect(body.thinking).toEqual({ type: 'adaptive', display: 'summarized' });
      expect(body.output_config).toEqual({ effort: 'max' });
    });

    it('drops temperature and a low top_p with adaptive thinking as with a budget', () => {
      const { body, droppedFields } = onOpus47({ messages: hello, reasoning_effort: 'low', temperature: 0.2, top_p: 0.5 });
      expect(body).not.toHaveProperty('temperature');
      expect(body).not.toHaveProperty('top_p');
      expect(droppedFields).toEqual(['temperature', 'top_p']);
    });

    it('sends no thinking for effort none, and names an effort it does not know as dropped', () => {
      const none = onOpus47({ messages: hello, reasoning_effort: 'none' });
      expect(none.body).not.toHaveProperty('thinking');
      expect(none.droppedFields).toEqual([]);
      const unknown = onOpus47({ messages: hello, reasoning_effort: 'ultra' });
      expect(unknown.body).not.toHaveProperty('thinking');
      expect(unknown.body).not.toHaveProperty('output_config');
      expect(unknown.droppedFields).toEqual(['reasoning_effort']);
    });

    it('sends no thinking when a tool is forced, as with a budget', () => {
      const forced = onOpus47({ messages: hello, reasoning_effort: 'high', tools: [{ type: 'function', function: { name: 'f' } }], tool_choice: 'required' });
      expect(forced.body).not.toHaveProperty('thinking');
      expect(forced.body).not.toHaveProperty('output_config');
      expect(forced.droppedFields).toEqual(['reasoning_effort']);
    });

    it('keeps adaptive thinking inside a tool-use loop whose turn lacks its signed thinking: adaptive thinking may skip thinking at any step', () => {
      const tools = [{ type: 'function', function: { name: 'read_file', parameters: { type: 'object', properties: { path: { type: 'string' } } } } }];
      const call = { role: 'assistant', content: 'Let me look.', tool_calls: [{ id: 'toolu_1', type: 'function', function: { name: 'read_file', arguments: '{"path":"a.ts"}' } }] };
      const { body, droppedFields } = onOpus47({ messages: [{ role: 'user', content: 'What is in a.ts?' }, call, { role: 'tool', tool_call_id: 'toolu_1', content: 'const a = 1;' }], tools, reasoning_effort: 'medium' });
      expect(body.thinking).toEqual({ type: 'adaptive', display: 'summarized' });
      expect(body.output_config).toEqual({ effort: 'medium' });
      expect(droppedFields).toEqual([]);
    });
  });

  it('names every field it drops: those chat alone has, then those Anthropic cannot take (structured output)', () => {
    const { body, droppedFields } = convert({ messages: hello, n: 2, seed: 7, frequency_penalty: 0.5, response_format: { type: 'json_object' }, logprobs: true });
    expect(droppedFields).toEqual(['n', 'seed', 'frequency_penalty', 'logprobs', 'response_format']);
    expect(body).not.toHaveProperty('n');
  });

  it('refuses a body without messages with a 400 that names the field', () => {
    let thrown: unknown;
    try {
      convert({ messages: 'Hello' });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(GatewayError);
    expect(thrown).toMatchObject({ status: 400, param: 'messages' });
  });
});
