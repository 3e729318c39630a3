import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../shared/core/errors.ts';
import { convertMessagesRequestToChat } from './support/translate.ts';

const convert = (body: Record<string, unknown>) =>
  convertMessagesRequestToChat({ model: 'claude-sonnet-4-5', max_tokens: 1024, ...body }, { upstreamModel: 'gpt-4.1' });
const hello = [{ role: 'user', content: 'Hello' }];

describe('convertMessagesRequestToChat: the conversation', () => {
  it('sends system, a string or text blocks joined by blank lines, as a leading system message', () => {
    expect(convert({ system: 'Be brief.', messages: hello }).body.messages[0]).toEqual({ role: 'system', content: 'Be brief.' });
    const blocks = [{ type: 'text', text: 'You are Claude Code.' }, { type: 'text', text: 'Be careful.', cache_control: { type: 'ephemeral' } }];
    const { body } = convert({ system: blocks, messages: hello });
    expect(body.messages).toEqual([
      { role: 'system', content: 'You are Claude Code.\n\nBe careful.' },
      { role: 'user', content: 'Hello' },
    ]);
    expect(body.model).toBe('gpt-4.1');
  });

  it('sends user text as a string when it is one block and as text parts when it is several', () => {
    const one = convert({ messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }] });
    expect(one.body.messages).toEqual([{ role: 'user', content: 'Hi' }]);
    const two = convert({ messages: [{ role: 'user', content: [{ type: 'text', text: '<reminder/>' }, { type: 'text', text: 'Hi' }] }] });
    expect(two.body.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: '<reminder/>' }, { type: 'text', text: 'Hi' }] }]);
  });

  it('sends base64 images as data: URLs and url images as their URL', () => {
    const { body } = convert({
      messages: [
        {
          role: 'user',
          content: [
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
            { type: 'image', source: { type: 'url', url: 'https://example.com/cat.jpg' } },
          ],
        },
      ],
    });
    expect(body.messages[0]).toEqual({
      role: 'user',
      content: [
        { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
        { type: 'image_url', image_url: { url: 'https://example.com/cat.jpg' } },
      ],
    });
  });

  it('turns assistant tool_use into tool_calls with JSON arguments and drops thinking', () => {
    const { body, droppedFields } = convert({
      messages: [
        ...hello,
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'Hmm.', signature: 'sig' },
            { type: 'text', text: 'Checking.' },
            { type: 'tool_use', id: 'toolu_1', name: 'Read', input: { file_path: '/a.ts' } },
            { type: 'tool_use', id: 'toolu_2', name: 'Glob', input: {} },
          ],
        },
      ],
    });
    expect(body.messages[1]).toEqual({
      role: 'assistant',
      content: 'Checking.',
      tool_calls: [
        { id: 'toolu_1', type: 'function', function: { name: 'Read', arguments: '{"file_path":"/a.ts"}' } },
        { id: 'toolu_2', type: 'function', function: { name: 'Glob', arguments: '{}' } },
      ],
    });
    expect(droppedFields).toEqual(['messages[].content[type=thinking]']);
  });

  it('answers with content null when the assistant turn holds only tool calls', () => {
    const { body } = convert({ messages: [...hello, { role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'f', input: {} }] }] });
    expect(body.messages[1]).toMatchObject({ role: 'assistant', content: null });
  });

  it('places tool results as tool messages right after the assistant message that called them, before the user text', () => {
    const { body } = convert({
      messages: [
        ...hello,
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'a', input: {} }, { type: 'tool_use', id: 'toolu_2', name: 'b', input: {} }] },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Here you go.' },
            { type: 'tool_result', tool_use_id: 'toolu_1', content: 'one' },
            { type: 'tool_result', tool_use_id: 'toolu_2', content: [{ type: 'text', text: 'two' }, { type: 'text', text: 'lines' }], is_error: true },
          ],
        },
      ],
    });
    expect(body.messages.slice(1)).toEqual([
      { role: 'assistant', content: null, tool_calls: expect.any(Array) },
      { role: 'tool', tool_call_id: 'toolu_1', content: 'one' },
      { role: 'tool', tool_call_id: 'toolu_2', content: 'two\nlines' },
      { role: 'user', content: 'Here you go.' },
    ]);
  });

  it('moves images a tool returned into a user message after the tool messages (tool messages hold only text)', () => {
    const image = { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } };
    const { body } = convert({
      messages: [
        ...hello,
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'Screenshot', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: 'Captured.' }, image] }] },
      ],
    });
    expect(body.messages.slice(2)).toEqual([
      { role: 'tool', tool_call_id: 'toolu_1', content: 'Captured.' },
      { role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } }] },
    ]);
  });
});

describe('convertMessagesRequestToChat: tools and parameters', () => {
  const tool = { name: 'Read', description: 'Reads a file', input_schema: { type: 'object', properties: { file_path: { type: 'string' } }, required: ['file_path'] } };

  it('sends client tools as function tools (input_schema → parameters) and drops server tools', () => {
    const { body, droppedFields } = convert({ messages: hello, tools: [tool, { type: 'web_search_20250305', name: 'web_search', max_uses: 5 }] });
    expect(body.tools).toEqual([{ type: 'function', function: { name: 'Read', description: 'Reads a file', parameters: tool.input_schema } }]);
    expect(droppedFields).toEqual(['tools[].type=web_search_20250305']);
  });

  it.each([
    [{ type: 'auto' }, 'auto'],
    [{ type: 'any' }, 'required'],
    [{ type: 'none' }, 'none'],
    [{ type: 'tool', name: 'Read' }, { type: 'function', function: { name: 'Read' } }],
  ])('maps tool_choice %j to %j', (choice, expected) => {
    expect(convert({ messages: hello, tools: [tool], tool_choice: choice }).body.tool_choice).toEqual(expected);
  });

  it('turns disable_parallel_tool_use into parallel_tool_calls: false', () => {
    const { body } = convert({ messages: hello, tools: [tool], tool_choice: { type: 'auto', disable_parallel_tool_use: true } });
    expect(body).toMatchObject({ tool_choice: 'auto', parallel_tool_calls: false });
  });

  it('passes stop_sequences as stop, max_tokens, temperature, top_p and metadata.user_id as user', () => {
    const { body } = convert({ messages: hello, stop_sequences: ['END'], max_tokens: 2048, temperature: 0.5, top_p: 0.9, metadata: { user_id: 'user-7' } });
    expect(body).toMatchObject({ stop: ['END'], max_tokens: 2048, temperature: 0.5, top_p: 0.9, user: 'user-7' });
  });

  it('asks a stream for its usage with stream_options.include_usage', () => {
    expect(convert({ messages: hello, stream: true }).body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    expect(convert({ messages: hello }).body).not.toHaveProperty('stream_options');
  });

  it('names every field it drops', () => {
    const { droppedFields } = convert({ messages: hello, top_k: 5, thinking: { type: 'enabled', budget_tokens: 2048 }, service_tier: 'auto' });
    expect(droppedFields).toEqual(['top_k', 'service_tier', 'thinking']);
  });

  it('refuses a message with an unknown role with a 400 that names the field', () => {
    let thrown: unknown;
    try {
      convert({ messages: [{ role: 'tool', content: 'x' }] });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(GatewayError);
    expect(thrown).toMatchObject({ status: 400, param: 'messages.0.role' });
  });
});

describe('convertMessagesRequestToChat with system messages between turns', () => {
  it('turns a system-role message (as Claude Code sends) into a chat system message in place', () => {
    const { body } = convertMessagesRequestToChat(
      { model: 'x', max_tokens: 8, messages: [{ role: 'user', content: 'hi' }, { role: 'system', content: [{ type: 'text', text: 'reminder' }] }, { role: 'user', content: 'again' }] },
      { upstreamModel: 'gpt-4o-mini' },
    );
    expect(body.messages.map((message) => message.role)).toEqual(['user', 'system', 'user']);
    expect(body.messages[1]).toMatchObject({ role: 'system', content: 'reminder' });
  });
});
