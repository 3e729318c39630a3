import { describe, expect, it } from 'vitest';
import { writeMessagesRequest } from '../../../shared/protocols/anthropic-messages/messages-request-writer.ts';
import { readChatRequest } from '../../../shared/protocols/openai-chat/chat-request-reader.ts';
import { NO_EXTRA_FEATURES } from '../../support/upstream-features.ts';

const chatWithSampling = () =>
  readChatRequest({ model: 'claude', messages: [{ role: 'user', content: 'Hello' }], temperature: 0.2, top_p: 0.9 });

describe('writeMessagesRequest sampling parameters', () => {
  it.each(['claude-opus-4-7', 'claude-opus-4-8', 'claude-sonnet-5', 'claude-fable-5', 'us.anthropic.claude-opus-4-7'])(
    'leaves temperature and top_p out for %s, which answers them with 400, and names them as dropped',
    (model) => {
      const request = chatWithSampling();
      const body = writeMessagesRequest(request, model, NO_EXTRA_FEATURES);
      expect(body).not.toHaveProperty('temperature');
      expect(body).not.toHaveProperty('top_p');
      expect(request.dropped.list()).toEqual(expect.arrayContaining(['temperature', 'top_p']));
    },
  );

  it.each(['claude-opus-4-1-20250805', 'claude-sonnet-4-5-20250929', 'claude-haiku-4-5', 'claude-opus-4-6', 'claude-sonnet-4-6', 'us.anthropic.claude-sonnet-4-5-20250929-v1:0'])(
    'sends %s, which refuses temperature and top_p together, the temperature only and names top_p as dropped',
    (model) => {
      const request = chatWithSampling();
      const body = writeMessagesRequest(request, model, NO_EXTRA_FEATURES);
      expect(body).toMatchObject({ temperature: 0.2 });
      expect(body).not.toHaveProperty('top_p');
      expect(request.dropped.list()).toEqual(['top_p']);
    },
  );

  it('keeps a tuned top_p for such a model when the temperature sent is the default', () => {
    const request = readChatRequest({ model: 'claude', messages: [{ role: 'user', content: 'Hello' }], temperature: 1, top_p: 0.8 });
    const body = writeMessagesRequest(request, 'claude-sonnet-4-6', NO_EXTRA_FEATURES);
    expect(body).toMatchObject({ top_p: 0.8 });
    expect(body).not.toHaveProperty('temperature');
    expect(request.dropped.list()).toEqual(['temperature']);
  });

  it('sends such a model either one alone', () => {
    const alone = readChatRequest({ model: 'claude', messages: [{ role: 'user', content: 'Hello' }], top_p: 0.8 });
    expect(writeMessagesRequest(alone, 'claude-sonnet-4-5', NO_EXTRA_FEATURES)).toMatchObject({ top_p: 0.8 });
    expect(alone.dropped.list()).toEqual([]);
  });

  it.each(['claude-sonnet-4-20250514', 'claude-opus-4-20250514', 'claude-3-7-sonnet-20250219', 'anthropic.claude-3-5-haiku-20241022-v1:0', 'glm-4.6'])(
    'sends temperature and top_p to %s, which takes them together',
    (model) => {
      const request = chatWithSampling();
      const body = writeMessagesRequest(request, model, NO_EXTRA_FEATURES);
      expect(body).toMatchObject({ temperature: 0.2, top_p: 0.9 });
      expect(request.dropped.list()).toEqual([]);
    },
  );
});

describe('writeMessagesRequest images', () => {
  const withImage = (url: string) => readChatRequest({ model: 'claude', messages: [{ role: 'user', content: [{ type: 'text', text: 'Look' }, { type: 'image_url', image_url: { url } }] }] });
  const contentOf = (body: Record<string, unknown>) => (body.messages as Array<{ content: unknown[] }>)[0]?.content;

  it('sends an image/jpg data URL as image/jpeg, the name Anthropic takes', () => {
    const body = writeMessagesRequest(withImage('data:image/jpg;base64,/9j/4AAQ'), 'claude-sonnet-4-5', NO_EXTRA_FEATURES);
    expect(contentOf(body)).toContainEqual({ type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: '/9j/4AAQ' } });
  });

  it('leaves out an image type Claude cannot read and names it as dropped', () => {
    const request = withImage('data:image/bmp;base64,Qk0=');
    const body = writeMessagesRequest(request, 'claude-sonnet-4-5', NO_EXTRA_FEATURES);
    expect(contentOf(body)).toEqual([{ type: 'text', text: 'Look' }]);
    expect(request.dropped.list()).toEqual(['messages[].content[type=image_url]']);
  });
});

describe('writeMessagesRequest opening turn', () => {
  it('puts a user turn before a conversation that opens with the assistant, and gives a system prompt alone one', () => {
    const greeted = writeMessagesRequest(readChatRequest({ model: 'claude', messages: [{ role: 'assistant', content: 'Hello!' }, { role: 'user', content: 'Hi' }] }), 'claude-sonnet-4-5', NO_EXTRA_FEATURES);
    expect(greeted.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: '.' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Hello!' }] },
      { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
    ]);
    const alone = writeMessagesRequest(readChatRequest({ model: 'claude', messages: [{ role: 'system', content: 'Write a haiku.' }] }), 'claude-sonnet-4-5', NO_EXTRA_FEATURES);
    expect(alone).toMatchObject({ system: [{ type: 'text', text: 'Write a haiku.' }], messages: [{ role: 'user', content: [{ type: 'text', text: '.' }] }] });
  });
});
