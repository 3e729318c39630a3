import { describe, expect, it } from 'vitest';
import { anthropicMessagesProtocol } from '../../../shared/protocols/anthropic-messages/anthropic-messages-protocol.ts';
import { bedrockConverseProtocol } from '../../../shared/protocols/bedrock-converse/bedrock-converse-protocol.ts';
import { openAiChatProtocol } from '../../../shared/protocols/openai-chat/openai-chat-protocol.ts';
import { presentation } from '../../canonical/support/translate.ts';
import { readFixture } from '../../support/fixtures.ts';

const fixture = (name: string): unknown => JSON.parse(readFixture(`bedrock/${name}`));

describe('readConverseResponse', () => {
  it('reads a recorded text answer with its usage, cache reads and writes counted in the prompt', () => {
    const answer = bedrockConverseProtocol.readResponse(fixture('converse-text.json'));

    expect(answer).toEqual({
      id: '',
      model: '',
      content: [{ type: 'text', text: 'Let me count the "r"s in "strawberry":\n\ns-t-**r**-a-w-b-e-**r**-**r**-y\n\nThere are **3** "r"s in "strawberry."' }],
      finish: 'stop',
      rawFinish: 'end_turn',
      usage: { promptTokens: 22, completionTokens: 57, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0, estimated: false },
    });
  });

  it('reads recorded parallel tool uses as tool calls with their input as JSON text', () => {
    const answer = bedrockConverseProtocol.readResponse(fixture('converse-parallel-tool-calls.json'));

    expect(answer.content).toEqual([
      { type: 'text', text: "Sure! I'll look up both values simultaneously right away!" },
      { type: 'tool-call', id: 'tooluse_hr5juciYZJwUHpRczsw13R', name: 'get_resistor_value', arguments: '{"ref":"R1"}' },
      { type: 'tool-call', id: 'tooluse_AZHw3Ym0S07qOv5NlXj9iJ', name: 'get_capacitor_value', arguments: '{"ref":"C1"}' },
    ]);
    expect(answer).toMatchObject({ finish: 'tool-calls', usage: { promptTokens: 694, completionTokens: 110 } });
  });

  it('reads recorded reasoning with its signature, so a chat client sees it as reasoning content', () => {
    const answer = bedrockConverseProtocol.readResponse(fixture('converse-reasoning.json'));
    expect(answer.content[0]).toMatchObject({ type: 'reasoning', text: expect.stringContaining('s-t-r-a-w-b-e-r-r-y'), signature: expect.stringMatching(/^EvYBCkg/) });

    const chat = JSON.parse(openAiChatProtocol.writeResponse(answer, presentation({ model: 'us.anthropic.claude-sonnet-4-5' }))) as { model: string; choices: Array<{ message: Record<string, unknown> }> };
    expect(chat.model).toBe('us.anthropic.claude-sonnet-4-5');
    expect(chat.choices[0]?.message).toMatchObject({ content: expect.stringContaining('There are **3**'), reasoning_content: expect.stringContaining('There are 3 r') });
  });

  it('refuses a body that is not a Converse answer, as an upstream error', () => {
    expect(() => bedrockConverseProtocol.readResponse({ message: 'not an answer' })).toThrow(/not a Converse answer/);
  });

  describe('a stop at a stop sequence', () => {
    const atStopSequence = { ...(fixture('converse-text.json') as Record<string, unknown>), stopReason: 'stop_sequence' };
    const requestWith = (stop: string[]) => anthropicMessagesProtocol.readRequest({ model: 'nova', max_tokens: 100, stop_sequences: stop, messages: [{ role: 'user', content: 'strawberry?' }] });

    it("names the request's only stop sequence, which is the one that matched, and writes it as Anthropic's stop_sequence stop", () => {
      const answer = bedrockConverseProtocol.readResponse(atStopSequence, requestWith(['###']));
      expect(answer).toMatchObject({ finish: 'stop', rawFinish: 'stop_sequence', stopSequence: '###' });
      expect(JSON.parse(anthropicMessagesProtocol.writeResponse(answer, presentation()))).toMatchObject({ stop_reason: 'stop_sequence', stop_sequence: '###' });
    });

    it('leaves the sequence unknown (null) when the request had several: Converse does not say which matched', () => {
      const answer = bedrockConverseProtocol.readResponse(atStopSequence, requestWith(['###', 'END']));
      expect(answer.stopSequence).toBeNull();
      expect(JSON.parse(anthropicMessagesProtocol.writeResponse(answer, presentation()))).toMatchObject({ stop_reason: 'stop_sequence', stop_sequence: null });
    });

    it("is a plain 'stop' for a chat client", () => {
      const chat = JSON.parse(openAiChatProtocol.writeResponse(bedrockConverseProtocol.readResponse(atStopSequence, requestWith(['###'])), presentation())) as { choices: Array<{ finish_reason: string }> };
      expect(chat.choices[0]?.finish_reason).toBe('stop');
    });
  });
});
