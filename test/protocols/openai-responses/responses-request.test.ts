import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../../shared/core/errors.ts';
import { readChatRequest } from '../../../shared/protocols/openai-chat/chat-request-reader.ts';
import { writeChatRequest } from '../../../shared/protocols/openai-chat/chat-request-writer.ts';
import { writeMessagesRequest } from '../../../shared/protocols/anthropic-messages/messages-request-writer.ts';
import { readMessagesRequest } from '../../../shared/protocols/anthropic-messages/messages-request-reader.ts';
import type { AnthropicMessagesRequestBody } from '../../../shared/protocols/anthropic-messages/anthropic-request-types.ts';
import { readResponsesRequest } from '../../../shared/protocols/openai-responses/responses-request-reader.ts';
import { writeResponsesRequest } from '../../../shared/protocols/openai-responses/responses-request-writer.ts';
import { buildUpstreamResponsesBody, parseResponsesRequest, responsesPromptText } from '../../../shared/protocols/openai-responses/responses-request.ts';
import { readFixture } from '../../support/fixtures.ts';
import { gatewayErrorThrownBy } from '../../support/gateway-error-thrown.ts';
import { NO_EXTRA_FEATURES, OPENAI_FEATURES } from '../../support/upstream-features.ts';

const codexTurn = (turn: 1 | 2) => JSON.parse(readFixture(`openai-responses/codex-0.169.0-request-turn-${turn}.json`)) as Record<string, unknown>;

describe('readResponsesRequest over Codex requests', () => {
  it('reads developer messages as system turns, the tool call and its output as assistant and tool turns', () => {
    const canonical = readResponsesRequest(codexTurn(2));
    expect(canonical.messages.map((message) => message.role)).toEqual(['system', 'system', 'user', 'user', 'assistant', 'tool']);
    expect(canonical.messages[4]?.parts).toEqual([{ type: 'tool-call', id: 'call_1', name: 'exec_command', arguments: '{"cmd":"echo hi-from-tool"}' }]);
    expect(canonical.messages[5]?.parts).toEqual([{ type: 'tool-result', callId: 'call_1', content: [{ type: 'text', text: expect.stringContaining('hi-from-tool') }] }]);
    expect(canonical.stream).toBe(true);
    expect(canonical.reasoning).toEqual({ effort: 'medium' });
  });

  it('reads function tools and the custom apply_patch tool with its grammar; drops hosted tools and what only OpenAI keeps', () => {
    const canonical = readResponsesRequest(codexTurn(1));
    const patch = canonical.tools.find((tool) => tool.name === 'apply_patch');
    expect(patch?.custom?.format).toMatchObject({ type: 'grammar', syntax: 'lark', definition: expect.stringContaining('begin_patch') });
    expect(canonical.tools.find((tool) => tool.name === 'exec_command')?.parameters).toMatchObject({ type: 'object', properties: { cmd: { type: 'string' } } });
    expect(canonical.dropped.list()).toEqual(expect.arrayContaining(['store', 'prompt_cache_key', 'client_metadata', 'tools[].type=tool_search', 'tools[].type=web_search', 'text.verbosity']));
    expect(canonical.dropped.list()).not.toContain('include[]=reasoning.encrypted_content');
  });

  it('translates a Codex turn into an Anthropic request: developer text hoisted to system, tool use and result paired', () => {
    const body = writeMessagesRequest(readResponsesRequest(codexTurn(2)), 'claude-sonnet-4-5', NO_EXTRA_FEATURES) as unknown as AnthropicMessagesRequestBody;
    expect(body.system?.[0]?.text).toMatch(/^You are Codex/);
    // The turn's call came back without signed thinking, which a thinking budget then requires.
    expect(body.thinking).toBeUndefined();
    expect(body.tools?.map((tool) => tool.name)).toContain('apply_patch');
    const [assistant, results] = body.messages.slice(-2);
    expect(assistant).toEqual({ role: 'assistant', content: [{ type: 'tool_use', id: 'call_1', name: 'exec_command', input: { cmd: 'echo hi-from-tool' } }] });
    expect(results?.content[0]).toMatchObject({ type: 'tool_result', tool_use_id: 'call_1' });
  });

  it('gives a Codex turn on a Claude model that takes adaptive thinking only its effort as adaptive thinking, kept inside the tool-use loop', () => {
    const body = writeMessagesRequest(readResponsesRequest(codexTurn(2)), 'claude-opus-4-7', NO_EXTRA_FEATURES) as unknown as AnthropicMessagesRequestBody;
    expect(body.thinking).toEqual({ type: 'adaptive', display: 'summarized' });
    expect(body.output_config).toEqual({ effort: 'medium' });
  });

  it('translates a Codex turn into a chat request: custom tools stay custom, the call and its tool message in order', () => {
    const body = writeChatRequest(readResponsesRequest(codexTurn(2)), 'gpt-5', OPENAI_FEATURES) as { tools: Array<{ type: string }>; messages: Array<{ role: string }>; stream_options: unknown };
    expect(body.tools.find((tool) => tool.type === 'custom')).toMatchObject({ custom: { name: 'apply_patch' } });
    expect(body.messages.slice(-2).map((message) => message.role)).toEqual(['assistant', 'tool']);
    expect(body.stream_options).toEqual({ include_usage: true });
  });
});

describe('readResponsesRequest', () => {
  const read = (body: Record<string, unknown>) => readResponsesRequest({ model: 'm', ...body });

  it('reads a string input as one user message and instructions as the system text', () => {
    expect(read({ input: 'Hello', instructions: 'Be brief' })).toMatchObject({ system: ['Be brief'], messages: [{ role: 'user', parts: [{ type: 'text', text: 'Hello' }] }] });
  });

  it('reads images, files, output_text and refusals; a file by id has no form elsewhere and is named as dropped', () => {
    const canonical = read({
      input: [
        { role: 'user', content: [{ type: 'input_text', text: 'Look' }, { type: 'input_image', image_url: 'data:image/png;base64,AAA' }, { type: 'input_file', file_data: 'data:application/pdf;base64,JVBE', filename: 'a.pdf' }, { type: 'input_file', file_id: 'file-1' }] },
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Seen' }, { type: 'refusal', refusal: 'but no' }] },
      ],
    });
    expect(canonical.messages).toEqual([
      { role: 'user', parts: [{ type: 'text', text: 'Look' }, { type: 'image', url: 'data:image/png;base64,AAA' }, { type: 'file', dataUrl: 'data:application/pdf;base64,JVBE', filename: 'a.pdf' }] },
      { role: 'assistant', parts: [{ type: 'text', text: 'Seen' }, { type: 'text', text: 'but no' }] },
    ]);
    expect(canonical.dropped.list()).toEqual(['input[].content[type=input_file]']);
  });

  it('joins reasoning, message and parallel calls into one assistant turn and their outputs into one tool turn', () => {
    const canonical = read({
      input: [
        { role: 'user', content: 'Go' },
        { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'Plan' }], encrypted_content: 'gAAAA-opaque' },
        { type: 'function_call', call_id: 'a', name: 'f', arguments: '{}' },
        { type: 'custom_tool_call', call_id: 'b', name: 'apply_patch', input: '*** Begin Patch' },
        { type: 'function_call_output', call_id: 'a', output: 'one' },
        { type: 'custom_tool_call_output', call_id: 'b', output: [{ type: 'input_text', text: 'two' }] },
      ],
    });
    expect(canonical.messages.slice(1)).toEqual([
      {
        role: 'assistant',
        parts: [
          { type: 'reasoning', text: 'Plan', encrypted: 'gAAAA-opaque' },
          { type: 'tool-call', id: 'a', name: 'f', arguments: '{}' },
          { type: 'tool-call', id: 'b', name: 'apply_patch', arguments: '*** Begin Patch', custom: true },
        ],
      },
      {
        role: 'tool',
        parts: [
          { type: 'tool-result', callId: 'a', content: [{ type: 'text', text: 'one' }] },
          { type: 'tool-result', callId: 'b', content: [{ type: 'text', text: 'two' }], custom: true },
        ],
      },
    ]);
  });

  it('gives back an Anthropic signature the gateway carried in encrypted_content, so thinking returns to Anthropic signed', () => {
    const canonical = read({ input: [{ type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'Hmm' }], encrypted_content: 'gateway-anthropic-signature:EqQBCkYI' }] });
    expect(canonical.messages[0]?.parts).toEqual([{ type: 'reasoning', text: 'Hmm', signature: 'EqQBCkYI' }]);
    const body = writeMessagesRequest(canonical, 'claude', NO_EXTRA_FEATURES) as { messages: Array<{ role: string; content: unknown[] }> };
    expect(body.messages.find((message) => message.role === 'assistant')?.content).toEqual([{ type: 'thinking', thinking: 'Hmm', signature: 'EqQBCkYI' }]);
  });

  it('reads max_output_tokens, temperature, top_p, tool_choice by name, text.format json_schema and the safety identifier', () => {
    expect(
      read({
        input: 'x',
        tools: [{ type: 'function', name: 'f', parameters: { type: 'object' } }],
        tool_choice: { type: 'function', name: 'f' },
        parallel_tool_calls: false,
        max_output_tokens: 300,
        temperature: 0.2,
        top_p: 0.9,
        text: { format: { type: 'json_schema', name: 'answer', schema: { type: 'object' }, strict: true } },
        safety_identifier: 'user-1',
      }),
    ).toMatchObject({
      toolChoice: { name: 'f' },
      parallelToolCalls: false,
      maxOutputTokens: 300,
      temperature: 0.2,
      topP: 0.9,
      responseFormat: { type: 'json_schema', name: 'answer', schema: { type: 'object' }, strict: true },
      user: 'user-1',
    });
  });

  it('refuses previous_response_id with 400: a translated target keeps no conversation state', () => {
    const refused = (() => {
      try {
        read({ input: 'x', previous_response_id: 'resp_1' });
      } catch (error) {
        return error;
      }
    })();
    expect(refused).toBeInstanceOf(GatewayError);
    expect(refused).toMatchObject({ status: 400, code: 'previous_response_not_supported', param: 'previous_response_id' });
  });

  it('refuses a malformed input with a 400 naming the field', () => {
    expect(() => read({ input: 42 })).toThrow(/Invalid field "input"/);
  });

  it('refuses what OpenAI refuses rather than answer without it: a role it does not have, no input at all, a tool without a name', () => {
    expect(gatewayErrorThrownBy(() => read({ input: [{ role: 'user', content: 'hi' }, { role: 'wizard', content: 'abracadabra' }] }))).toMatchObject({
      status: 400,
      code: 'invalid_value',
      param: 'input[1].role',
      message: "Invalid value: 'wizard'. Supported values are: 'assistant', 'system', 'developer', and 'user'.",
    });
    expect(gatewayErrorThrownBy(() => read({ input: [{ type: 'message', content: 'hi' }] }))).toMatchObject({ status: 400, code: 'missing_required_parameter', param: 'input[0].role' });
    expect(gatewayErrorThrownBy(() => read({ instructions: 'be brief' }))).toMatchObject({ status: 400, code: 'missing_required_parameter', param: 'input' });
    const nameless = { input: 'x', tools: [{ type: 'function', name: 'ok', parameters: {} }, { type: 'function', parameters: {} }] };
    expect(gatewayErrorThrownBy(() => read(nameless))).toMatchObject({ status: 400, code: 'missing_required_parameter', param: 'tools[1].name' });
  });

  it('names a strict function tool’s strictness as dropped on its way to Anthropic, which has no such mode', () => {
    const canonical = read({ input: 'x', tools: [{ type: 'function', name: 'f', strict: true, parameters: { type: 'object', properties: {} } }] });
    writeMessagesRequest(canonical, 'claude-sonnet-4-5', NO_EXTRA_FEATURES);
    expect(canonical.dropped.list()).toContain('tools[].strict');
  });
});

describe('writeResponsesRequest', () => {
  it('writes a chat request as a Responses request: instructions, input items, flat tools, output cap, no storage', () => {
    const canonical = readChatRequest({
      model: 'm',
      messages: [
        { role: 'system', content: 'Be brief' },
        { role: 'user', content: [{ type: 'text', text: 'Weather?' }, { type: 'image_url', image_url: { url: 'https://example.com/a.png' } }] },
        { role: 'assistant', content: 'Checking', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } }] },
        { role: 'tool', tool_call_id: 'call_1', content: 'Sunny' },
      ],
      tools: [{ type: 'function', function: { name: 'weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }],
      tool_choice: 'required',
      max_completion_tokens: 100,
      stop: ['END'],
      stream: true,
      response_format: { type: 'json_object' },
    });
    expect(writeResponsesRequest(canonical, 'o3-pro', NO_EXTRA_FEATURES)).toEqual({
      model: 'o3-pro',
      input: [
        { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'Be brief' }] },
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Weather?' }, { type: 'input_image', image_url: 'https://example.com/a.png', detail: 'auto' }] },
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Checking' }] },
        { type: 'function_call', call_id: 'call_1', name: 'weather', arguments: '{"city":"Paris"}' },
        { type: 'function_call_output', call_id: 'call_1', output: 'Sunny' },
      ],
      tools: [{ type: 'function', name: 'weather', parameters: { type: 'object', properties: { city: { type: 'string' } } }, strict: false }],
      tool_choice: 'required',
      max_output_tokens: 100,
      text: { format: { type: 'json_object' } },
      // A reasoning model's reasoning comes back encrypted, for the client to carry (store: false keeps none).
      include: ['reasoning.encrypted_content'],
      store: false,
      stream: true,
    });
    expect(canonical.dropped.list()).toContain('stop');
  });

  it('writes an Anthropic request (system blocks, tool results of parallel calls) as instructions and output items', () => {
    const canonical = readMessagesRequest({
      model: 'm',
      max_tokens: 50,
      system: [{ type: 'text', text: 'Rules' }],
      messages: [
        { role: 'user', content: 'Go' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'f', input: { a: 1 } }, { type: 'tool_use', id: 't2', name: 'f', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'A' }, { type: 'tool_result', tool_use_id: 't2', content: [{ type: 'text', text: 'B' }] }] },
      ],
      tools: [{ name: 'f', input_schema: { type: 'object' } }],
    });
    const body = writeResponsesRequest(canonical, 'gpt-5-codex', NO_EXTRA_FEATURES) as Record<string, unknown>;
    expect(body.instructions).toBe('Rules');
    expect(body.input).toEqual([
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Go' }] },
      { type: 'function_call', call_id: 't1', name: 'f', arguments: '{"a":1}' },
      { type: 'function_call', call_id: 't2', name: 'f', arguments: '{}' },
      { type: 'function_call_output', call_id: 't1', output: 'A' },
      { type: 'function_call_output', call_id: 't2', output: 'B' },
    ]);
    expect(body.max_output_tokens).toBe(50);
  });
});

describe('parseResponsesRequest and the native body', () => {
  it('removes the gateway-only fields and keeps every other field as sent, with the upstream model id', () => {
    const request = parseResponsesRequest(JSON.stringify({ model: 'fast', input: 'x', models: ['b'], route: 'fallback', provider: { order: ['openai'] }, usage: { include: true }, transforms: ['middle-out'], store: true, include: ['reasoning.encrypted_content'], future_field: { a: 1 } }));
    expect(JSON.parse(buildUpstreamResponsesBody(request, 'gpt-5'))).toEqual({ model: 'gpt-5', input: 'x', store: true, include: ['reasoning.encrypted_content'], future_field: { a: 1 } });
  });

  it('leaves out the reasoning it translated from Claude\'s thinking, which OpenAI cannot decrypt; OpenAI\'s own reasoning stays', () => {
    const claudeThinking = { type: 'reasoning', summary: [{ type: 'summary_text', text: 'Call the tool.' }], encrypted_content: 'gateway-anthropic-signature:EoQDCm0IDhgC' };
    const openAiReasoning = { type: 'reasoning', summary: [], encrypted_content: 'gAAAAABo-opaque' };
    const call = { type: 'function_call', call_id: 'toolu_1', name: 'fixed_version', arguments: '{}' };
    const output = { type: 'function_call_output', call_id: 'toolu_1', output: '2.1.129' };
    const request = parseResponsesRequest(JSON.stringify({ model: 'gpt', store: false, input: [{ role: 'user', content: 'Which version?' }, claudeThinking, call, output, openAiReasoning] }));
    expect(JSON.parse(buildUpstreamResponsesBody(request, 'gpt-5.5')).input).toEqual([{ role: 'user', content: 'Which version?' }, call, output, openAiReasoning]);
  });

  it('refuses background responses, which would finish after the gateway could meter them', () => {
    expect(() => parseResponsesRequest(JSON.stringify({ model: 'm', input: 'x', background: true }))).toThrow(/Background responses are not supported/);
  });

  it('counts the instructions, texts, call arguments and outputs of the input for estimates', () => {
    const text = responsesPromptText(parseResponsesRequest(JSON.stringify(codexTurn(2))));
    expect(text).toMatch(/^You are Codex|<skills_instructions>|hi-from-tool/);
    expect(text).toContain('run echo');
    expect(text).toContain('{"cmd":"echo hi-from-tool"}');
    expect(text).toContain('hi-from-tool\n');
  });

  it('counts the tool definitions for estimates: names, descriptions, parameter schemas and a custom tool\'s grammar', () => {
    const text = responsesPromptText(parseResponsesRequest(JSON.stringify(codexTurn(1))));
    expect(text).toContain('exec_command\nRuns a command in a PTY');
    expect(text).toContain('"cmd":{"type":"string","description":"Shell command to execute."}');
    expect(text).toContain('apply_patch\nThe `apply_patch` tool can be used to edit files.');
    expect(text).toContain('start: begin_patch hunk+ end_patch');
  });

  it('counts a function tool after the instructions and a string input; a hosted tool adds no text', () => {
    const request = parseResponsesRequest(
      JSON.stringify({ model: 'm', instructions: 'Be brief.', input: 'Weather?', tools: [{ type: 'function', name: 'get_weather', description: 'Looks up the weather.', parameters: { type: 'object', properties: { city: { type: 'string' } } } }, { type: 'web_search' }] }),
    );
    expect(responsesPromptText(request)).toBe('Be brief.\nWeather?\nget_weather\nLooks up the weather.\n{"type":"object","properties":{"city":{"type":"string"}}}');
  });
});
