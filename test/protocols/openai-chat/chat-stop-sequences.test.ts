import { describe, expect, it } from 'vitest';
import { anthropicMessagesProtocol } from '../../../shared/protocols/anthropic-messages/anthropic-messages-protocol.ts';
import { openAiChatProtocol } from '../../../shared/protocols/openai-chat/openai-chat-protocol.ts';
import type { UpstreamFeatures } from '../../../shared/protocols/wire-protocol.ts';
import { NO_EXTRA_FEATURES, OPENAI_FEATURES } from '../../support/upstream-features.ts';

/** An Anthropic client's stop sequences, as the chat writer sends them to `upstreamModel`. */
function stopSent(stopSequences: string[], upstreamModel: string, features: UpstreamFeatures) {
  const canonical = anthropicMessagesProtocol.readRequest({ model: 'm', max_tokens: 100, messages: [{ role: 'user', content: 'Hi' }], stop_sequences: stopSequences });
  const body = openAiChatProtocol.writeRequest(canonical, upstreamModel, features);
  return { stop: body.stop, dropped: canonical.dropped.list() };
}

const SIX = ['a', 'b', 'c', 'd', 'e', 'f'];

describe('chat completions stop sequences', () => {
  it.each(['o3', 'o4-mini', 'gpt-5', 'gpt-5-mini', 'gpt-5.1-codex'])('sends %s, which refuses stop, none and names stop as dropped', (model) => {
    expect(stopSent(['END'], model, OPENAI_FEATURES)).toEqual({ stop: undefined, dropped: ['stop'] });
  });

  it("sends OpenAI's own API the first four, the most it takes, and names stop as dropped", () => {
    expect(stopSent(SIX, 'gpt-4.1', OPENAI_FEATURES)).toEqual({ stop: ['a', 'b', 'c', 'd'], dropped: ['stop'] });
    expect(stopSent(['a', 'b'], 'gpt-4.1', OPENAI_FEATURES)).toEqual({ stop: ['a', 'b'], dropped: [] });
  });

  it('sends another chat server every sequence', () => {
    expect(stopSent(SIX, 'llama-3.3-70b', NO_EXTRA_FEATURES)).toEqual({ stop: SIX, dropped: [] });
  });
});
