import { describe, expect, it } from 'vitest';
import { countTokens } from '../../../shared/tokenizer/estimate-tokens.ts';
import { countMessagesTokensEstimate, messagesPromptText } from '../../../shared/protocols/anthropic-messages/count-tokens.ts';
import { parseMessagesRequest } from '../../../shared/protocols/anthropic-messages/messages-request.ts';
import { recordedRequestBody } from './anthropic-fixtures.ts';

const toolTurn = {
  system: [{ type: 'text', text: 'You are a weather bot.' }],
  messages: [
    { role: 'user', content: 'Weather in Paris?' },
    {
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'I should call the tool.', signature: 'c2lnbmF0dXJl' },
        { type: 'text', text: 'Let me check.' },
        { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } },
      ],
    },
    {
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: '18°C, cloudy' }] },
        { type: 'tool_result', tool_use_id: 'toolu_2', content: 'no data' },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
      ],
    },
  ],
  tools: [{ name: 'get_weather', description: 'Current weather', input_schema: { type: 'object', properties: { city: { type: 'string' } } } }],
};

describe('messagesPromptText', () => {
  it('counts system, text, tool calls as JSON, tool results and tool definitions; not thinking, signatures or images', () => {
    expect(messagesPromptText(toolTurn)).toBe(
      [
        'You are a weather bot.',
        'Weather in Paris?',
        'Let me check.',
        'get_weather',
        '{"city":"Paris"}',
        '18°C, cloudy',
        'no data',
        'get_weather',
        'Current weather',
        '{"type":"object","properties":{"city":{"type":"string"}}}',
      ].join('\n'),
    );
  });

  it('reads a system prompt given as a string', () => {
    expect(messagesPromptText({ system: 'Be brief.', messages: [{ role: 'user', content: 'Hi' }] })).toBe('Be brief.\nHi');
  });

  it('reads a recorded request with a tool definition', () => {
    const request = parseMessagesRequest(recordedRequestBody('messages-stream-thinking-then-tool-use.sse'));
    expect(messagesPromptText(request)).toBe(
      [
        'Use the fixed_version tool. Then tell me the version and make one short joke about it. Think about it first.',
        'fixed_version',
        'Return a fixed test version string',
        '{"properties":{},"type":"object"}',
      ].join('\n'),
    );
  });
});

describe('countMessagesTokensEstimate', () => {
  it("answers in count_tokens' shape with the tokenizer's count of the prompt text", async () => {
    const expected = await countTokens(messagesPromptText(toolTurn));
    expect(expected).toBeGreaterThan(40);
    // Beside the text: each message's framing, and the turn's one image.
    expect(await countMessagesTokensEstimate(toolTurn)).toEqual({ input_tokens: expected + 4 * toolTurn.messages.length + 1_600 });
  });

  it('counts what has no text: an image (a tool result’s too) near its largest, each page of a PDF, and a text document’s text', async () => {
    const image = { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } };
    const pdf = (pages: number) => Buffer.from(`%PDF-1.7\n1 0 obj << /Type /Pages /Count ${pages} >>\n${'2 0 obj << /Type /Page >>\n'.repeat(pages)}%%EOF`).toString('base64');
    const count = async (content: unknown[]) => (await countMessagesTokensEstimate({ messages: [{ role: 'user', content }] })).input_tokens;
    const what = await count([{ type: 'text', text: 'what' }]);
    expect(await count([{ type: 'text', text: 'what' }, image])).toBe(what + 1_600);
    expect(await count([{ type: 'tool_result', tool_use_id: 't', content: [image] }, { type: 'text', text: 'what' }])).toBe(what + 1_600);
    expect(await count([{ type: 'text', text: 'what' }, { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: pdf(3) } }])).toBe(what + 3 * 2_000);
    expect(await count([{ type: 'text', text: 'what' }, { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'a long memo about tokens' } }])).toBeGreaterThan(what + 4);
  });

  it('counts tool definitions: the same turn costs more with tools than without', async () => {
    const withTools = await countMessagesTokensEstimate(toolTurn);
    const withoutTools = await countMessagesTokensEstimate({ ...toolTurn, tools: [] });
    expect(withTools.input_tokens).toBeGreaterThan(withoutTools.input_tokens);
  });

  it('answers 0 for an empty conversation', async () => {
    expect(await countMessagesTokensEstimate({ messages: [] })).toEqual({ input_tokens: 0 });
  });
});
