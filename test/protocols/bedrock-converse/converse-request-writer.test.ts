import { describe, expect, it } from 'vitest';
import { DroppedFields } from '../../../shared/canonical/dropped-fields.ts';
import { anthropicMessagesProtocol } from '../../../shared/protocols/anthropic-messages/anthropic-messages-protocol.ts';
import { bedrockConverseProtocol } from '../../../shared/protocols/bedrock-converse/bedrock-converse-protocol.ts';
import { NO_TOOLS_PLACEHOLDER } from '../../../shared/protocols/bedrock-converse/converse-request-writer.ts';
import { openAiChatProtocol } from '../../../shared/protocols/openai-chat/openai-chat-protocol.ts';
import { openAiResponsesProtocol } from '../../../shared/protocols/openai-responses/openai-responses-protocol.ts';
import type { WireProtocol } from '../../../shared/protocols/wire-protocol.ts';
import { NO_EXTRA_FEATURES } from '../../support/upstream-features.ts';

/** A client body as the gateway sends it to Converse: the client protocol's reader, Converse's writer. */
function toConverse(client: WireProtocol, body: Record<string, unknown>) {
  const canonical = client.readRequest(body);
  return { body: bedrockConverseProtocol.writeRequest(canonical, 'amazon.nova-pro-v1:0', NO_EXTRA_FEATURES), dropped: canonical.dropped.list() };
}

const PNG = 'data:image/png;base64,iVBORw0KGgo=';

describe('writeConverseRequest', () => {
  it('writes a chat conversation with tools as Converse messages, system, inferenceConfig and toolConfig', () => {
    const { body, dropped } = toConverse(openAiChatProtocol, {
      model: 'nova',
      max_tokens: 300,
      temperature: 1.5,
      top_p: 0.9,
      stop: ['END'],
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: [{ type: 'text', text: 'What is in the picture, and the weather?' }, { type: 'image_url', image_url: { url: PNG } }] },
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
        { role: 'tool', tool_call_id: 'call_1', content: '18°C' },
        { role: 'user', content: 'Thanks' },
      ],
      tools: [{ type: 'function', function: { name: 'get_weather', description: 'Weather now', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } } }],
      tool_choice: 'required',
    });

    expect(body).toEqual({
      system: [{ text: 'Be brief.' }],
      messages: [
        { role: 'user', content: [{ text: 'What is in the picture, and the weather?' }, { image: { format: 'png', source: { bytes: 'iVBORw0KGgo=' } } }] },
        { role: 'assistant', content: [{ toolUse: { toolUseId: 'call_1', name: 'get_weather', input: { city: 'Paris' } } }] },
        // The tool's result and the next user text are one user turn, the result first.
        { role: 'user', content: [{ toolResult: { toolUseId: 'call_1', content: [{ text: '18°C' }] } }, { text: 'Thanks' }] },
      ],
      inferenceConfig: { maxTokens: 300, temperature: 1, topP: 0.9, stopSequences: ['END'] },
      toolConfig: {
        tools: [{ toolSpec: { name: 'get_weather', description: 'Weather now', inputSchema: { json: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } } } }],
        toolChoice: { any: {} },
      },
    });
    expect(dropped).toEqual([]);
  });

  it('drops and names what Converse has no common field for', () => {
    const { body, dropped } = toConverse(openAiChatProtocol, {
      model: 'nova',
      messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://example.com/cat.png' } }, { type: 'text', text: 'Describe' }] }],
      reasoning_effort: 'high',
      response_format: { type: 'json_object' },
      user: 'user-7',
      parallel_tool_calls: false,
      tools: [{ type: 'function', function: { name: 'noop', parameters: { type: 'object', properties: {} } } }],
    });

    expect(body.messages).toEqual([{ role: 'user', content: [{ text: 'Describe' }] }]);
    expect(dropped).toEqual(expect.arrayContaining(['messages[].content[type=image_url]', 'reasoning_effort', 'response_format', 'user', 'parallel_tool_calls']));
  });

  it('keeps tool_choice none by offering no tools (Converse has no "none"), the placeholder tool when earlier calls need a toolConfig', () => {
    const tools = [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: {} } } }];
    const fresh = toConverse(openAiChatProtocol, { model: 'nova', messages: [{ role: 'user', content: 'Hi' }], tools, tool_choice: 'none' });
    expect(fresh.body).not.toHaveProperty('toolConfig');
    expect(fresh.dropped).toEqual([]);

    const after = toConverse(openAiChatProtocol, {
      model: 'nova',
      messages: [
        { role: 'user', content: 'Weather in Paris?' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{}' } }] },
        { role: 'tool', tool_call_id: 'call_1', content: '18°C' },
      ],
      tools,
      tool_choice: 'none',
    });
    expect(after.body.toolConfig).toEqual({ tools: [NO_TOOLS_PLACEHOLDER] });
  });

  it("writes a Messages request's blocks: documents, tool results marked as errors, earlier thinking left out", () => {
    const { body, dropped } = toConverse(anthropicMessagesProtocol, {
      model: 'nova',
      max_tokens: 100,
      system: [{ type: 'text', text: 'You read documents.' }],
      messages: [
        { role: 'user', content: [{ type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'Minutes' }, title: 'minutes: 2025/01' }, { type: 'text', text: 'Summarise' }] },
        { role: 'assistant', content: [{ type: 'thinking', thinking: 'Let me look', signature: 'sig' }, { type: 'tool_use', id: 'toolu_1', name: 'lookup', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '', is_error: true }] },
      ],
    });

    expect(body).toMatchObject({
      system: [{ text: 'You read documents.' }],
      messages: [
        { role: 'user', content: [{ document: { format: 'txt', name: 'minutes- 2025-01', source: { bytes: Buffer.from('Minutes').toString('base64') } } }, { text: 'Summarise' }] },
        { role: 'assistant', content: [{ toolUse: { toolUseId: 'toolu_1', name: 'lookup', input: {} } }] },
        { role: 'user', content: [{ toolResult: { toolUseId: 'toolu_1', content: [{ text: '(no output)' }], status: 'error' } }] },
      ],
      inferenceConfig: { maxTokens: 100 },
    });
    expect(dropped).toContain('messages[].content[type=thinking]');
  });

  it('gives a conversation with earlier tool calls and no tools in this turn the toolConfig Converse requires, with one placeholder tool', () => {
    const { body } = toConverse(openAiChatProtocol, {
      model: 'nova',
      messages: [
        { role: 'user', content: 'Weather in Paris?' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
        { role: 'tool', tool_call_id: 'call_1', content: '18°C' },
        { role: 'user', content: 'Summarise the conversation.' },
      ],
    });

    expect(body.toolConfig).toEqual({ tools: [NO_TOOLS_PLACEHOLDER] });
    expect(toConverse(openAiChatProtocol, { model: 'nova', messages: [{ role: 'user', content: 'Hi' }] }).body).not.toHaveProperty('toolConfig');
  });

  it('leaves out reasoning an earlier assistant turn carried (only its own model could read it back), naming it', () => {
    const dropped = new DroppedFields();
    const body = bedrockConverseProtocol.writeRequest(
      {
        system: [],
        messages: [
          { role: 'user', parts: [{ type: 'text', text: 'Count' }] },
          { role: 'assistant', parts: [{ type: 'reasoning', text: 'One, two', signature: 'sig' }, { type: 'text', text: 'Two' }] },
          { role: 'user', parts: [{ type: 'text', text: 'Again' }] },
        ],
        tools: [],
        stream: false,
        dropped,
      },
      'amazon.nova-pro-v1:0',
      NO_EXTRA_FEATURES,
    );

    expect(body.messages).toEqual([
      { role: 'user', content: [{ text: 'Count' }] },
      { role: 'assistant', content: [{ text: 'Two' }] },
      { role: 'user', content: [{ text: 'Again' }] },
    ]);
    expect(dropped.list()).toEqual(['messages[].content[type=reasoning]']);
  });

  it("gives a Responses client's custom tool (free text) to Converse as a tool taking one input string", () => {
    const { body } = toConverse(openAiResponsesProtocol, {
      model: 'nova',
      input: [
        { type: 'message', role: 'user', content: 'Patch it' },
        { type: 'custom_tool_call', call_id: 'call_9', name: 'apply_patch', input: '*** Begin Patch' },
        { type: 'custom_tool_call_output', call_id: 'call_9', output: 'Done' },
      ],
      tools: [{ type: 'custom', name: 'apply_patch', description: 'Edit files' }],
    });

    expect(body.toolConfig).toMatchObject({ tools: [{ toolSpec: { name: 'apply_patch', inputSchema: { json: { properties: { input: { type: 'string' } }, required: ['input'] } } } }] });
    expect(body.messages).toMatchObject([
      { role: 'user', content: [{ text: 'Patch it' }] },
      { role: 'assistant', content: [{ toolUse: { toolUseId: 'call_9', name: 'apply_patch', input: { input: '*** Begin Patch' } } }] },
      { role: 'user', content: [{ toolResult: { toolUseId: 'call_9', content: [{ text: 'Done' }] } }] },
    ]);
  });

  it('puts the model and the streaming choice in the path, encoded as one segment', () => {
    expect(bedrockConverseProtocol.upstreamPath({ streaming: false, upstreamModel: 'amazon.nova-pro-v1:0' })).toBe('/model/amazon.nova-pro-v1%3A0/converse');
    expect(bedrockConverseProtocol.upstreamPath({ streaming: true, upstreamModel: 'arn:aws:bedrock:us-east-1:123456789012:application-inference-profile/abc' })).toBe(
      '/model/arn%3Aaws%3Abedrock%3Aus-east-1%3A123456789012%3Aapplication-inference-profile%2Fabc/converse-stream',
    );
  });
});

describe('writeConverseRequest sampling for Claude', () => {
  const withSampling = { model: 'claude', messages: [{ role: 'user', content: 'Hello' }], temperature: 0.2, top_p: 0.9 };
  const converseOf = (upstreamModel: string) => {
    const canonical = openAiChatProtocol.readRequest(withSampling);
    const body = bedrockConverseProtocol.writeRequest(canonical, upstreamModel, NO_EXTRA_FEATURES) as { inferenceConfig?: Record<string, unknown> };
    return { inferenceConfig: body.inferenceConfig, dropped: canonical.dropped.list() };
  };

  it('sends Claude Opus 4.7, which refuses both, neither and names them as dropped', () => {
    const { inferenceConfig, dropped } = converseOf('us.anthropic.claude-opus-4-7');
    expect(inferenceConfig ?? {}).toEqual({});
    expect(dropped).toEqual(expect.arrayContaining(['temperature', 'top_p']));
  });

  it('sends Claude Sonnet 4.5, which refuses the two together, the temperature only', () => {
    const { inferenceConfig, dropped } = converseOf('us.anthropic.claude-sonnet-4-5-20250929-v1:0');
    expect(inferenceConfig).toEqual({ temperature: 0.2 });
    expect(dropped).toEqual(['top_p']);
  });

  it('sends another vendor\'s model both', () => {
    expect(converseOf('amazon.nova-pro-v1:0').inferenceConfig).toEqual({ temperature: 0.2, topP: 0.9 });
  });
});

describe('writeConverseRequest opening turn', () => {
  it('puts a user turn before a conversation that opens with the assistant, and gives a system prompt alone one', () => {
    const greeted = toConverse(openAiChatProtocol, { model: 'nova', messages: [{ role: 'assistant', content: 'Hello!' }, { role: 'user', content: 'Hi' }] }).body as { messages: unknown[] };
    expect(greeted.messages).toEqual([{ role: 'user', content: [{ text: '.' }] }, { role: 'assistant', content: [{ text: 'Hello!' }] }, { role: 'user', content: [{ text: 'Hi' }] }]);
    const alone = toConverse(openAiChatProtocol, { model: 'nova', messages: [{ role: 'system', content: 'Write a haiku.' }] }).body as { system: unknown; messages: unknown[] };
    expect(alone).toMatchObject({ system: [{ text: 'Write a haiku.' }], messages: [{ role: 'user', content: [{ text: '.' }] }] });
  });
});
