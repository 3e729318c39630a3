import { describe, expect, it } from 'vitest';
import { anthropicMessagesProtocol } from '../../shared/protocols/anthropic-messages/anthropic-messages-protocol.ts';
import { openAiChatProtocol } from '../../shared/protocols/openai-chat/openai-chat-protocol.ts';
import { openAiResponsesProtocol } from '../../shared/protocols/openai-responses/openai-responses-protocol.ts';
import type { UpstreamProtocol, WireProtocol } from '../../shared/protocols/wire-protocol.ts';
import { NO_EXTRA_FEATURES } from '../support/upstream-features.ts';

const ephemeral = { type: 'ephemeral' } as const;

function translate(client: WireProtocol, upstream: UpstreamProtocol, body: Record<string, unknown>, upstreamModel = 'claude-sonnet-4-5-20250929') {
  const canonical = client.readRequest({ model: 'm', ...body });
  return { body: upstream.writeRequest(canonical, upstreamModel, NO_EXTRA_FEATURES), dropped: canonical.dropped.list() };
}

describe('cache marks through translation', () => {
  it("writes a chat client's cache_control on content parts (OpenRouter's form) as Anthropic's, on the blocks they mark", () => {
    const { body, dropped } = translate(openAiChatProtocol, anthropicMessagesProtocol, {
      messages: [
        { role: 'system', content: [{ type: 'text', text: 'Long system', cache_control: ephemeral }] },
        { role: 'user', content: [{ type: 'text', text: 'Document', cache_control: ephemeral }, { type: 'text', text: 'Question?' }] },
      ],
    });

    expect(body).toMatchObject({
      system: [{ type: 'text', text: 'Long system', cache_control: ephemeral }],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Document', cache_control: ephemeral }, { type: 'text', text: 'Question?' }] }],
    });
    expect(dropped).toEqual([]);
  });

  it('keeps the last four marks for Anthropic, which refuses a fifth, naming the earlier ones', () => {
    const user = (text: string) => ({ role: 'user', content: [{ type: 'text', text, cache_control: ephemeral }] });
    const { body, dropped } = translate(openAiChatProtocol, anthropicMessagesProtocol, {
      messages: [{ role: 'system', content: [{ type: 'text', text: 'S', cache_control: ephemeral }] }, user('1'), { role: 'assistant', content: 'a' }, user('2'), { role: 'assistant', content: 'b' }, user('3'), { role: 'assistant', content: 'c' }, user('4')],
    });

    expect(body.system).toEqual([{ type: 'text', text: 'S' }]);
    expect(JSON.stringify(body.messages).match(/cache_control/g)).toHaveLength(4);
    expect(dropped).toEqual(['system[].cache_control']);
  });

  it('names the marks a Messages client sent where chat completions and the Responses API have no place for them', () => {
    const body = {
      max_tokens: 10,
      system: [{ type: 'text', text: 'Long system', cache_control: ephemeral }],
      tools: [{ name: 't', input_schema: { type: 'object' }, cache_control: ephemeral }],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hi', cache_control: ephemeral }] }],
    };
    const marks = ['tools[].cache_control', 'system[].cache_control', 'messages[].content[].cache_control'];

    const chat = translate(anthropicMessagesProtocol, openAiChatProtocol, body, 'gpt-4.1');
    expect(JSON.stringify(chat.body)).not.toContain('cache');
    expect(chat.dropped).toEqual(marks);
    const responses = translate(anthropicMessagesProtocol, openAiResponsesProtocol, body, 'gpt-4.1');
    expect(JSON.stringify(responses.body)).not.toContain('cache');
    expect(responses.dropped).toEqual(marks);
  });
});
