import { describe, expect, it } from 'vitest';
import { chatCompletionsEndpoint } from '../../shared/endpoints/chat-completions.ts';
import { parseChatCompletionRequest } from '../../shared/protocols/openai-chat/chat-request.ts';

const promptTextOf = (body: Record<string, unknown>) => chatCompletionsEndpoint.promptText(parseChatCompletionRequest(JSON.stringify({ model: 'm', ...body })));

describe('the chat completions endpoint', () => {
  it('estimates the prompt with its tool definitions: function and custom tools, as the model reads them', () => {
    const text = promptTextOf({
      messages: [{ role: 'user', content: 'Weather in Paris?' }],
      tools: [
        { type: 'function', function: { name: 'get_weather', description: 'Looks up the weather.', parameters: { type: 'object', properties: { city: { type: 'string' } } } } },
        { type: 'custom', custom: { name: 'patch', description: 'Edits files.', format: { type: 'grammar', grammar: { syntax: 'lark', definition: 'start: "*** Begin Patch"' } } } },
      ],
    });
    expect(text).toBe('Weather in Paris?\nget_weather\nLooks up the weather.\n{"type":"object","properties":{"city":{"type":"string"}}}\npatch\nEdits files.\nstart: "*** Begin Patch"');
  });

  it('counts the older `functions` definitions too', () => {
    const text = promptTextOf({ messages: [{ role: 'user', content: 'Hi' }], functions: [{ name: 'lookup', description: 'Finds a record.', parameters: { type: 'object' } }] });
    expect(text).toBe('Hi\nlookup\nFinds a record.\n{"type":"object"}');
  });

  it('reserves the larger cap when a body sends both max_completion_tokens and max_tokens: a provider reading max_tokens may bill up to it', () => {
    const capOf = (body: Record<string, unknown>) => chatCompletionsEndpoint.maxOutputTokens?.(parseChatCompletionRequest(JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'x' }], ...body })));
    expect(capOf({ max_completion_tokens: 1, max_tokens: 50_000 })).toBe(50_000);
    expect(capOf({ max_completion_tokens: 800, max_tokens: 20 })).toBe(800);
    expect(capOf({ max_tokens: 20 })).toBe(20);
    expect(capOf({ max_tokens: 0 })).toBeUndefined();
  });
});
