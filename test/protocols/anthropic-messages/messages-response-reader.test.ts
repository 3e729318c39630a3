import { describe, expect, it } from 'vitest';
import { generatedText } from '../../../shared/canonical/canonical-response.ts';
import { GatewayError } from '../../../shared/core/errors.ts';
import { priceUsage } from '../../../shared/core/price-usage.ts';
import { readMessagesResponse } from '../../../shared/protocols/anthropic-messages/messages-response-reader.ts';
import { readFixture } from '../../support/fixtures.ts';

const read = (fixture: string) => readMessagesResponse(JSON.parse(readFixture(`anthropic/${fixture}`)));

describe('readMessagesResponse', () => {
  it('reads usage, stop reason, id, model and text of a recorded text response', () => {
    expect(read('messages-nonstream-text.json')).toEqual({
      id: 'msg_01VdEjxAP5ahtHKrrRdNBteQ',
      model: 'claude-sonnet-4-5-20250929',
      content: [{ type: 'text', text: "Hello! I'm doing well, thanks for asking. How are you doing today? Is there anything I can help you with?" }],
      finish: 'stop',
      rawFinish: 'end_turn',
      usage: { promptTokens: 12, completionTokens: 29, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0, estimated: false },
    });
  });

  it('prices a recorded prompt-cache response with cache reads and writes at their own prices', () => {
    const { usage } = read('messages-nonstream-cache-usage.json');
    const rate = { slug: 's', inputPriceMicrosPer1k: 3_000, outputPriceMicrosPer1k: 15_000, cachedInputPriceMicrosPer1k: 300, cacheWriteInputPriceMicrosPer1k: 3_750 };
    expect(usage && priceUsage(usage, rate)).toBe(3 * 3_000 + 1_111 * 300 + 418 * 3_750 + 33 * 15_000);
  });

  it('keeps thinking with its signature, text and the tool call of a recorded tool-use response; the generated text leaves the signature out', () => {
    const response = read('messages-nonstream-thinking-text-tool-use.json');
    expect(response.rawFinish).toBe('tool_use');
    expect(response.content.map((part) => part.type)).toEqual(['reasoning', 'text', 'tool-call']);
    expect(response.content[0]).toMatchObject({ type: 'reasoning', signature: expect.stringMatching(/^EqEECkYICxgC/) });
    const text = generatedText(response.content);
    expect(text).toMatch(/^The user is asking about the largest city/);
    expect(text).toMatch(/First, let me determine which country you're from\.get_user_country\{\}$/);
    expect(text).not.toContain('EqEECkYICxgC');
  });

  it('reports no usage when the response carries none', () => {
    expect(readMessagesResponse({ id: 'msg_1', content: [{ type: 'text', text: 'Hi' }], stop_reason: 'end_turn' })).toEqual({
      id: 'msg_1',
      model: '',
      content: [{ type: 'text', text: 'Hi' }],
      finish: 'stop',
      rawFinish: 'end_turn',
    });
  });

  it('refuses a body that is not a message with an upstream error', () => {
    expect(() => readMessagesResponse([1])).toThrow(GatewayError);
  });
});
