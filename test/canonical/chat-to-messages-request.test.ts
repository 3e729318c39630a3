import { describe, expect, it } from 'vitest';
import { convertChatRequestToMessages } from './support/translate.ts';

const convert = (body: Record<string, unknown>, options: { defaultMaxTokens?: number } = {}) =>
  convertChatRequestToMessages({ model: 'claude-alias', ...body }, { upstreamModel: 'claude-sonnet-4-5-20250929', ...options });
const hello = [{ role: 'user', content: 'Hello' }];

describe('convertChatRequestToMessages: the conversation', () => {
  it('hoists system and developer messages, wherever they stand, into system text blocks', () => {
    const { body } = convert({
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hi' },
        { role: 'developer', content: [{ type: 'text', text: 'Answer in French.' }] },
      ],
    });
    expect(body.system).toEqual([{ type: 'text', text: 'Be brief.' }, { type: 'text', text: 'Answer in French.' }]);
    expect(body.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }]);
    expect(body.model).toBe('claude-sonnet-4-5-20250929');
  });

  it('carries user and assistant text as text blocks, leaving out empty text and the final prefill whitespace', () => {
    const { body } = convert({
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Question?' }, { type: 'text', text: '  ' }] },
        { role: 'assistant', content: 'Answer: ' },
      ],
    });
    expect(body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Question?' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Answer:' }] },
    ]);
  });

  it('sends data: image URLs as base64 sources and http(s) URLs as url sources', () => {
    const { body, droppedFields } = convert({
      messages: [
        {
          role: 'user',
          content: [
            { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
            { type: 'image_url', image_url: { url: 'https://example.com/cat.jpg', detail: 'high' } },
            { type: 'input_audio', input_audio: { data: 'AAAA', format: 'wav' } },
          ],
        },
      ],
    });
    expect(body.messages[0]?.content).toEqual([
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
      { type: 'image', source: { type: 'url', url: 'https://example.com/cat.jpg' } },
    ]);
    expect(droppedFields).toEqual(['messages[].content[type=input_audio]']);
  });

  it('sends a base64 PDF file part as a document block', () => {
    const { body } = convert({
      messages: [{ role: 'user', content: [{ type: 'file', file: { filename: 'a.pdf', file_data: 'data:application/pdf;base64,JVBERi0=' } }] }],
    });
    expect(body.messages[0]?.content).toEqual([{ type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0=' }, title: 'a.pdf' }]);
  });

  it('turns assistant tool_calls into tool_use blocks with parsed input ({} when empty, raw_arguments when not JSON)', () => {
    const call = (id: string, args: string) => ({ id, type: 'function', function: { name: 'lookup', arguments: args } });
    const { body } = convert({
      messages: [
        ...hello,
        { role: 'assistant', content: 'Looking.', tool_calls: [call('call_1', '{"q":"x"}'), call('call_2', ''), call('call_3', 'not json')] },
      ],
    });
    expect(body.messages[1]?.content).toEqual([
      { type: 'text', text: 'Looking.' },
      { type: 'tool_use', id: 'call_1', name: 'lookup', input: { q: 'x' } },
      { type: 'tool_use', id: 'call_2', name: 'lookup', input: {} },
      { type: 'tool_use', id: 'call_3', name: 'lookup', input: { raw_arguments: 'not json' } },
    ]);
  });

  it('merges consecutive tool results into one user message, tool results before the user text that follows', () => {
    const { body } = convert({
      messages: [
        ...hello,
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'a', arguments: '{}' } }, { id: 'call_2', type: 'function', function: { name: 'b', arguments: '{}' } }] },
        { role: 'tool', tool_call_id: 'call_1', content: 'one' },
        { role: 'tool', tool_call_id: 'call_2', content: [{ type: 'text', text: 'two' }] },
        { role: 'user', content: 'Thanks' },
      ],
    });
    expect(body.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
    expect(body.messages[2]?.content).toEqual([
      { type: 'tool_result', tool_use_id: 'call_1', content: 'one' },
      { type: 'tool_result', tool_use_id: 'call_2', content: 'two' },
      { type: 'text', text: 'Thanks' },
    ]);
  });

  it('moves tool results ahead of user text that came before them in a merged user message', () => {
    const { body } = convert({
      messages: [
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'a', arguments: '{}' } }] },
        { role: 'user', content: 'Note first' },
        { role: 'tool', tool_call_id: 'call_1', content: 'result' },
      ],
    });
    // messages[0] is the user turn a conversation opening with the assistant gets (opening-user-turn.ts).
    expect(body.messages[2]?.content.map((block) => block.type)).toEqual(['tool_result', 'text']);
  });

  it('merges consecutive messages of one role so user and assistant alternate, and omits empty ones', () => {
    const { body } = convert({
      messages: [
        { role: 'user', content: 'One' },
        { role: 'user', content: 'Two' },
        { role: 'assistant', content: '' },
        { role: 'assistant', content: 'Three' },
        { role: 'assistant', content: 'Four' },
      ],
    });
    expect(body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'One' }, { type: 'text', text: 'Two' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Three' }, { type: 'text', text: 'Four' }] },
    ]);
  });
});
