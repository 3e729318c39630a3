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

  it.each(['claude-opus-4-6', 'claude-sonnet-4-5', 'anthropic.claude-3-5-haiku-20241022-v1:0'])('sends temperature and top_p to %s, which takes them', (model) => {
    const request = chatWithSampling();
    const body = writeMessagesRequest(request, model, NO_EXTRA_FEATURES);
    expect(body).toMatchObject({ temperature: 0.2, top_p: 0.9 });
    expect(request.dropped.list()).not.toContain('temperature');
  });
});
