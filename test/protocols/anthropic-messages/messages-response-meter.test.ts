import { describe, expect, it } from 'vitest';
import { priceUsage } from '../../../shared/core/price-usage.ts';
import { meterMessagesResponse } from '../../../shared/protocols/anthropic-messages/messages-response-meter.ts';
import { readFixture } from '../../support/fixtures.ts';

describe('meterMessagesResponse', () => {
  it('reads usage, stop reason, id and model of a recorded text response', () => {
    expect(meterMessagesResponse(readFixture('anthropic/messages-nonstream-text.json'))).toEqual({
      usage: { promptTokens: 12, completionTokens: 29, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0, estimated: false },
      stopReason: 'end_turn',
      upstreamId: 'msg_01VdEjxAP5ahtHKrrRdNBteQ',
      model: 'claude-sonnet-4-5-20250929',
      completionText: "Hello! I'm doing well, thanks for asking. How are you doing today? Is there anything I can help you with?",
    });
  });

  it('prices a recorded prompt-cache response with cache reads and writes at their own prices', () => {
    const { usage } = meterMessagesResponse(readFixture('anthropic/messages-nonstream-cache-usage.json'));
    const rate = { slug: 's', inputPriceMicrosPer1k: 3_000, outputPriceMicrosPer1k: 15_000, cachedInputPriceMicrosPer1k: 300, cacheWriteInputPriceMicrosPer1k: 3_750 };
    expect(usage && priceUsage(usage, rate)).toBe(3 * 3_000 + 1_111 * 300 + 418 * 3_750 + 33 * 15_000);
  });

  it('collects thinking, text, tool name and tool input of a recorded tool-use response, not the signature', () => {
    const observation = meterMessagesResponse(readFixture('anthropic/messages-nonstream-thinking-text-tool-use.json'));
    expect(observation.stopReason).toBe('tool_use');
    expect(observation.completionText).toMatch(/^The user is asking about the largest city/);
    expect(observation.completionText).toMatch(/First, let me determine which country you're from\.get_user_country\{\}$/);
    expect(observation.completionText).not.toContain('EqEECkYICxgC');
  });

  it('reports no usage for a body that is not a JSON object, counting its text as the output', () => {
    expect(meterMessagesResponse('<html>oops</html>')).toEqual({ completionText: '<html>oops</html>' });
    expect(meterMessagesResponse('[1]')).toEqual({ completionText: '[1]' });
  });

  it('reports no usage when the response carries none', () => {
    const observation = meterMessagesResponse(JSON.stringify({ id: 'msg_1', content: [{ type: 'text', text: 'Hi' }], stop_reason: 'end_turn' }));
    expect(observation).toEqual({ stopReason: 'end_turn', upstreamId: 'msg_1', completionText: 'Hi' });
  });
});
