import { describe, expect, it } from 'vitest';
import { anthropicMessagesProtocol } from '../../../shared/protocols/anthropic-messages/anthropic-messages-protocol.ts';
import { parseMessagesRequest } from '../../../shared/protocols/anthropic-messages/messages-request.ts';
import { openAiChatProtocol } from '../../../shared/protocols/openai-chat/openai-chat-protocol.ts';
import { composeMockReply } from '../../../shared/providers/mock/mock-reply.ts';
import { mockRequestSchema, type MockRequest } from '../../../shared/providers/mock/mock-request.ts';
import { NO_EXTRA_FEATURES } from '../../support/upstream-features.ts';

const weather = {
  type: 'function',
  function: {
    name: 'get_weather',
    parameters: { type: 'object', properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] }, days: { type: 'integer' } }, required: ['city', 'unit'] },
  },
};
const time = { type: 'function', function: { name: 'get_time', parameters: { type: 'object', properties: {} } } };

function request(messages: MockRequest['messages'], extra: Partial<MockRequest> = {}): MockRequest {
  return { model: 'echo', messages, tools: [weather, time], ...extra };
}
const user = (content: unknown) => ({ role: 'user', content });

describe('composeMockReply', () => {
  it('calls the tool the last user message names, with the JSON object written after its name', () => {
    expect(composeMockReply(request([user('Please call get_weather {"city": "Paris", "unit": "celsius"} now')]))).toEqual({
      kind: 'tool-call',
      name: 'get_weather',
      arguments: '{"city":"Paris","unit":"celsius"}',
    });
  });

  it("fills the required parameters with placeholders of their type when the message gives no arguments", () => {
    expect(composeMockReply(request([user('what does get_weather say?')]))).toEqual({
      kind: 'tool-call',
      name: 'get_weather',
      arguments: '{"city":"example","unit":"celsius"}',
    });
  });

  it('calls the tool named first when the message names several, and reads text parts', () => {
    const reply = composeMockReply(request([user([{ type: 'text', text: 'use get_time, then get_weather' }])]));
    expect(reply).toEqual({ kind: 'tool-call', name: 'get_time', arguments: '{}' });
  });

  it('does not take a longer name for a tool it contains', () => {
    expect(composeMockReply(request([user('call get_weather_v2')]))).toMatchObject({ kind: 'text' });
  });

  it('calls a function tool_choice forces, and the first tool for "required", whatever the message says', () => {
    expect(composeMockReply(request([user('hello')], { tool_choice: { type: 'function', function: { name: 'get_time' } } }))).toMatchObject({ name: 'get_time' });
    expect(composeMockReply(request([user('hello')], { tool_choice: 'required' }))).toMatchObject({ name: 'get_weather' });
  });

  it('never calls a tool with tool_choice "none", without tools, or after the last message was not the user\'s', () => {
    expect(composeMockReply(request([user('call get_time')], { tool_choice: 'none' }))).toMatchObject({ kind: 'text' });
    expect(composeMockReply({ model: 'echo', messages: [user('call get_time')] })).toMatchObject({ kind: 'text' });
    expect(composeMockReply(request([user('call get_time'), { role: 'assistant', content: 'done' }]))).toMatchObject({ kind: 'text' });
  });

  it('looks past system and developer messages after the user\'s: Claude Code ends its request with one', () => {
    const reminder = { role: 'system', content: 'Remember the house rules.' };
    expect(composeMockReply(request([user('call get_time'), reminder]))).toEqual({ kind: 'tool-call', name: 'get_time', arguments: '{}' });
    expect(composeMockReply(request([user('call get_time'), reminder, { role: 'developer', content: 'Be brief.' }]))).toMatchObject({ name: 'get_time' });
    expect(composeMockReply(request([user('call get_time'), { role: 'assistant', content: 'done' }, reminder]))).toMatchObject({ kind: 'text' });
    const afterResults = [user('call get_time'), { role: 'tool', tool_call_id: 'a', content: '14:00' }, reminder];
    expect(composeMockReply(request(afterResults))).toEqual({ kind: 'text', text: '[offline mock echo] The tool returned: 14:00' });
  });

  it('calls the tool a Claude Code request through /v1/messages names (roles user then system), as the mock sees it translated', () => {
    const claudeCode = parseMessagesRequest(JSON.stringify({
      model: 'mock/echo',
      max_tokens: 1024,
      system: [{ type: 'text', text: 'You are Claude Code.' }],
      tools: [{ name: 'Bash', description: 'Runs a command.', input_schema: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] } }],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'call Bash {"command": "ls"}' }] },
        { role: 'system', content: [{ type: 'text', text: '<system-reminder>Plan mode is off.</system-reminder>' }] },
      ],
    }));
    const chatBody = openAiChatProtocol.writeRequest(anthropicMessagesProtocol.readRequest(claudeCode), 'echo', NO_EXTRA_FEATURES);
    const seen = mockRequestSchema.parse(chatBody);
    expect(seen.messages.map((message) => message.role)).toEqual(['system', 'user', 'system']);
    expect(composeMockReply(seen)).toEqual({ kind: 'tool-call', name: 'Bash', arguments: '{"command":"ls"}' });
  });

  it('answers tool results with what the tools returned, which ends an agent loop', () => {
    const messages = [
      user('call get_weather and get_time'),
      { role: 'assistant', content: null, tool_calls: [{ id: 'a', type: 'function', function: { name: 'get_weather', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'a', content: '18°C and sunny' },
      { role: 'tool', tool_call_id: 'b', content: [{ type: 'text', text: '14:00' }] },
    ];
    expect(composeMockReply(request(messages))).toEqual({ kind: 'text', text: '[offline mock echo] The tool returned: 18°C and sunny | 14:00' });
  });

  it('repeats the last user message when no tool is asked for', () => {
    expect(composeMockReply(request([user('Hello there')]))).toEqual({ kind: 'text', text: '[offline mock echo] You said: Hello there' });
  });
});
