import { describe, expect, it } from 'vitest';
import { createChatPassThrough } from '../../../shared/protocols/openai-chat/chat-pass-through.ts';
import { presentChatCompletion } from '../../../shared/protocols/openai-chat/chat-native-response.ts';
import type { Presentation } from '../../../shared/protocols/wire-protocol.ts';
import { tokenUsage } from '../../support/token-usage.ts';

/** OpenRouter's usage object: its own price of the request, in every answer. */
const openRouterUsage = { prompt_tokens: 1000, completion_tokens: 500, total_tokens: 1500, cost: 0.5, is_byok: false, cost_details: { upstream_inference_cost: 0.45 } };
const usage = tokenUsage({ promptTokens: 1000, completionTokens: 500 });
const presentation = (changes: Partial<Presentation>): Presentation =>
  ({ responseId: 'r', model: 'm', injectCost: false, showUsage: false, priceUsd: () => '0.000457', finalUsage: async () => usage, clientBody: {}, ...changes }) as Presentation;
const completion = { id: 'gen-1', object: 'chat.completion', created: 1, model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: 'Hi' }, finish_reason: 'stop' }], usage: openRouterUsage };

describe("a provider's own price in a native chat answer", () => {
  it('never reaches the client: left out without usage-cost injection, replaced by the gateway\'s with it', () => {
    const plain = JSON.parse(presentChatCompletion(JSON.stringify(completion), completion, usage, presentation({}))) as typeof completion;
    expect(plain.usage).toEqual({ prompt_tokens: 1000, completion_tokens: 500, total_tokens: 1500, is_byok: false });
    const injected = JSON.parse(presentChatCompletion(JSON.stringify(completion), completion, usage, presentation({ injectCost: true }))) as { usage: Record<string, unknown> };
    expect(injected.usage.cost).toBe(0.000457);
    expect(injected.usage).not.toHaveProperty('cost_details');
  });

  it('is left out of the usage chunk of a stream whose client asked for usage', async () => {
    const stream = createChatPassThrough(presentation({ showUsage: true }));
    const chunk = { id: 'gen-1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [], usage: openRouterUsage };
    const shown = await stream.push({ raw: `data: ${JSON.stringify(chunk)}\n\n`, data: JSON.stringify(chunk), payload: chunk } as never, [{ type: 'usage', usage }]);
    const payload = JSON.parse(shown.slice('data: '.length)) as { usage: Record<string, unknown> };
    expect(payload.usage).toEqual({ prompt_tokens: 1000, completion_tokens: 500, total_tokens: 1500, is_byok: false });
  });

  it('leaves an answer without it byte for byte', () => {
    const text = JSON.stringify({ ...completion, usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 } });
    expect(presentChatCompletion(text, JSON.parse(text) as Record<string, unknown>, usage, presentation({}))).toBe(text);
  });
});
