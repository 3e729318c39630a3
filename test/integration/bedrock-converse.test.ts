import { describe, expect, it } from 'vitest';
import { converseStreamFrames, errorFrame } from '../support/bedrock-event-stream.ts';
import { sendBedrockError, sendBedrockJson, sendEventStream } from '../support/fake-bedrock-runtime.ts';
import { readFixture } from '../support/fixtures.ts';
import { anthropic, bedrock, gateway, generation, key, lastRequest, NOVA, recordedAnswers, useBedrockGateway } from './bedrock-fixtures.ts';

useBedrockGateway();

/** The recorded Converse answers (whole, or streamed when the request streams), ended with another stop reason. */
function answerRecordedStopping(stopReason: string): void {
  const stopping = (recorded: string) => recorded.replace(/"stopReason": ?"end_turn"/, `"stopReason":"${stopReason}"`);
  bedrock.answerWith((request, response) =>
    request.operation === 'converse-stream'
      ? sendEventStream(response, converseStreamFrames(stopping(readFixture('bedrock/converse-stream-text.chunks.txt'))))
      : sendBedrockJson(response, stopping(readFixture('bedrock/converse-text.json'))),
  );
}

describe('other models on Bedrock through Converse, and Claude for other clients', () => {
  it('streams a chat completion from ConverseStream, with the recorded usage', async () => {
    bedrock.answerWith(recordedAnswers);
    const stream = await gateway.openai(key, { defaultHeaders: { 'x-request-id': 'bedrock-converse-stream' } }).chat.completions.create({
      model: 'nova',
      stream: true,
      stream_options: { include_usage: true },
      max_tokens: 100,
      messages: [{ role: 'system', content: 'Count letters.' }, { role: 'user', content: 'How many r in strawberry?' }],
    });
    let text = '';
    let usage: unknown;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      if (chunk.usage) usage = chunk.usage;
    }

    expect(text).toBe('Let me count the "r"s in "strawberry":\n\ns-t-**r**-a-w-b-e-**r**-**r**-y\n\nThere are **3** r\'s in "strawberry."');
    expect(usage).toMatchObject({ prompt_tokens: 22, completion_tokens: 55 });
    expect(lastRequest()).toMatchObject({
      model: NOVA,
      operation: 'converse-stream',
      body: { system: [{ text: 'Count letters.' }], messages: [{ role: 'user', content: [{ text: 'How many r in strawberry?' }] }], inferenceConfig: { maxTokens: 100 } },
    });
    expect(await generation('bedrock-converse-stream')).toMatchObject({ model: `bedrock/${NOVA}`, tokens_prompt: 22, tokens_completion: 55, total_cost: (22 * 800 + 55 * 3200) / 1e9 });
  });

  it("answers a chat completion and a Responses request from Converse, and a Messages client from Converse too", async () => {
    bedrock.answerWith(recordedAnswers);
    const client = gateway.openai(key);
    const completion = await client.chat.completions.create({ model: `bedrock/${NOVA}`, messages: [{ role: 'user', content: 'strawberry?' }] });
    expect(completion).toMatchObject({ model: NOVA, choices: [{ message: { content: expect.stringContaining('There are **3**') }, finish_reason: 'stop' }], usage: { prompt_tokens: 22, completion_tokens: 57 } });

    const response = await client.responses.create({ model: 'nova', input: 'strawberry?' });
    expect(response.output_text).toContain('There are **3**');

    const message = await anthropic().messages.create({ model: 'nova', max_tokens: 100, messages: [{ role: 'user', content: 'strawberry?' }] });
    expect(message).toMatchObject({ content: [{ type: 'text', text: expect.stringContaining('There are **3**') }], usage: { input_tokens: 22, output_tokens: 57 } });
    expect(bedrock.received.slice(-3).map((request) => request.operation)).toEqual(['converse', 'converse', 'converse']);
  });

  it('translates a chat completion for Claude into the Messages body InvokeModel takes, streaming it back as chat chunks', async () => {
    bedrock.answerWith(recordedAnswers);
    const stream = await gateway.openai(key).chat.completions.create({ model: 'claude-haiku-4-5', stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'Say hello' }] });
    let text = '';
    let usage: unknown;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      if (chunk.usage) usage = chunk.usage;
    }

    expect(text).toBe('Hello');
    expect(usage).toMatchObject({ prompt_tokens: 11, completion_tokens: 5 });
    // No cap asked: a stream gets 32,000 of Claude Haiku 4.5's 64,000 (docs/decisions/messages-and-translation.md).
    expect(lastRequest()).toMatchObject({ operation: 'invoke-with-response-stream', body: { anthropic_version: 'bedrock-2023-05-31', max_tokens: 32_000, messages: [{ role: 'user', content: [{ type: 'text', text: 'Say hello' }] }] } });
    expect(lastRequest().body).not.toHaveProperty('model');
  });

  it('ends a chat stream with an error, metered as failed, when ConverseStream sends an unmodelled error message', async () => {
    bedrock.answerWith((_request, response) => {
      const frames = converseStreamFrames(readFixture('bedrock/converse-stream-text.chunks.txt')).slice(0, 3);
      return sendEventStream(response, [...frames, errorFrame('InternalFailure', 'The request processing has failed because of an unknown error.')]);
    });
    const stream = await gateway.openai(key, { defaultHeaders: { 'x-request-id': 'bedrock-converse-error-message' } }).chat.completions.create({ model: 'nova', stream: true, messages: [{ role: 'user', content: 'Hi' }] });
    const finishes: unknown[] = [];
    const failure = await (async () => {
      for await (const chunk of stream) finishes.push(chunk.choices[0]?.finish_reason);
    })().catch((error: unknown) => error);

    expect(failure).toMatchObject({ message: 'The request processing has failed because of an unknown error.' });
    expect(finishes.filter(Boolean)).toEqual([]);
    expect(await generation('bedrock-converse-error-message')).toMatchObject({ status: 'failed' });
  });

  it('ends a chat stream ConverseStream closed before its messageStop with an error, never a finish, metered as failed', async () => {
    // The connection closes cleanly between two event-stream messages, in the middle of the text.
    bedrock.answerWith((_request, response) => sendEventStream(response, converseStreamFrames(readFixture('bedrock/converse-stream-text.chunks.txt')).slice(0, 4)));
    const stream = await gateway.openai(key, { defaultHeaders: { 'x-request-id': 'bedrock-converse-cut-off' } }).chat.completions.create({ model: 'nova', stream: true, messages: [{ role: 'user', content: 'Hi' }] });
    const finishes: unknown[] = [];
    const failure = await (async () => {
      for await (const chunk of stream) finishes.push(chunk.choices[0]?.finish_reason);
    })().catch((error: unknown) => error);

    expect(failure).toMatchObject({ message: 'Provider "bedrock" closed the stream before the answer was complete.' });
    expect(finishes.filter(Boolean)).toEqual([]);
    expect(await generation('bedrock-converse-cut-off')).toMatchObject({ status: 'failed', error_code: 'upstream_stream_interrupted' });
  });

  it("writes a Messages client's cache_control marks as Converse cachePoints after what they mark, naming the tools' mark Nova cannot take", async () => {
    bedrock.answerWith(recordedAnswers);
    const ephemeral = { type: 'ephemeral' } as const;
    const { response } = await anthropic()
      .messages.create({
        model: 'nova',
        max_tokens: 10,
        system: [{ type: 'text', text: 'Long system', cache_control: ephemeral }],
        tools: [{ name: 't', input_schema: { type: 'object' }, cache_control: ephemeral }],
        messages: [{ role: 'user', content: [{ type: 'text', text: 'hi', cache_control: ephemeral }] }],
      })
      .withResponse();

    const cachePoint = { cachePoint: { type: 'default' } };
    expect(lastRequest()).toMatchObject({ operation: 'converse', body: { system: [{ text: 'Long system' }, cachePoint], messages: [{ role: 'user', content: [{ text: 'hi' }, cachePoint] }] } });
    expect(lastRequest().body).toHaveProperty('toolConfig.tools', [{ toolSpec: { name: 't', inputSchema: { json: { type: 'object', properties: {} } } } }]);
    expect(response.headers.get('x-gateway-dropped-fields')).toBe('tools[].cache_control');
  });

  it('answers a turn after tool calls that offers no tools (Converse requires a toolConfig then)', async () => {
    bedrock.answerWith(recordedAnswers);
    const completion = await gateway.openai(key).chat.completions.create({
      model: 'nova',
      messages: [
        { role: 'user', content: 'Weather in Paris?' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
        { role: 'tool', tool_call_id: 'call_1', content: '18°C' },
        { role: 'user', content: 'Summarise the conversation.' },
      ],
    });

    expect(completion.choices[0]?.message.content).toContain('strawberry');
    expect(lastRequest().body.toolConfig).toMatchObject({ tools: [{ toolSpec: { name: 'no_tools_available' } }] });
  });

  it('answers a conversation a chat app opens with its greeting (Converse refuses one that does not start with a user turn)', async () => {
    bedrock.answerWith(recordedAnswers);
    const completion = await gateway.openai(key).chat.completions.create({
      model: 'nova',
      messages: [{ role: 'system', content: 'Be a pirate.' }, { role: 'assistant', content: 'Ahoy! How may I help ye?' }, { role: 'user', content: 'strawberry?' }],
    });

    expect(completion.choices[0]?.message.content).toContain('There are **3**');
    expect(lastRequest().body.messages).toEqual([
      { role: 'user', content: [{ text: '.' }] },
      { role: 'assistant', content: [{ text: 'Ahoy! How may I help ye?' }] },
      { role: 'user', content: [{ text: 'strawberry?' }] },
    ]);
  });

  it("sends back the tool call ids Bedrock's own models answer (Kimi's functions.read_file:1), which Converse refuses in a request, as ids it takes", async () => {
    bedrock.answerWith((request, response) =>
      request.operation === 'converse-stream' ? sendEventStream(response, converseStreamFrames(readFixture('bedrock/converse-stream-tool-call.chunks.txt'))) : recordedAnswers(request, response),
    );
    const client = gateway.openai(key);
    const tools = [{ type: 'function' as const, function: { name: 'read_file', parameters: { type: 'object', properties: { target_file: { type: 'string' } } } } }];
    const stream = await client.chat.completions.create({ model: 'nova', stream: true, tools, messages: [{ role: 'user', content: 'Read the config.' }] });
    const calls: Array<{ id: string; name: string; arguments: string }> = [];
    for await (const chunk of stream) {
      for (const call of chunk.choices[0]?.delta.tool_calls ?? []) {
        if (call.id) calls.push({ id: call.id, name: call.function?.name ?? '', arguments: '' });
        const open = calls.at(-1);
        if (open) open.arguments += call.function?.arguments ?? '';
      }
    }
    expect(calls).toEqual([{ id: 'functions.read_file:1', name: 'read_file', arguments: '{"target_file": "src/cursor-config.ts"}' }]);

    // Codex's ids are longer than Converse takes; two that differ only in a character Converse refuses stay two.
    const codexIds = [`call_${'a'.repeat(24)}|fc_${'b'.repeat(48)}`, `call_${'a'.repeat(24)}.fc_${'b'.repeat(48)}`];
    const completion = await client.chat.completions.create({
      model: 'nova',
      tools,
      messages: [
        { role: 'user', content: 'Read the config.' },
        { role: 'assistant', content: null, tool_calls: calls.map((call) => ({ id: call.id, type: 'function' as const, function: { name: call.name, arguments: call.arguments } })) },
        { role: 'tool', tool_call_id: 'functions.read_file:1', content: 'export default {}' },
        { role: 'assistant', content: null, tool_calls: codexIds.map((id) => ({ id, type: 'function' as const, function: { name: 'read_file', arguments: '{}' } })) },
        ...codexIds.map((id, index) => ({ role: 'tool' as const, tool_call_id: id, content: `file ${index}` })),
      ],
    });

    expect(completion.choices[0]?.message.content).toContain('strawberry');
    const [, firstCall, firstResult, codexCalls, codexResults] = lastRequest().body.messages as Array<{ content: Array<{ toolUse?: { toolUseId: string }; toolResult?: { toolUseId: string } }> }>;
    const firstId = firstCall?.content[0]?.toolUse?.toolUseId;
    expect(firstId).toMatch(/^functions_read_file_1_[0-9a-f]{8}$/);
    expect(firstResult?.content[0]?.toolResult?.toolUseId).toBe(firstId);
    const codexUseIds = codexCalls?.content.map((block) => block.toolUse?.toolUseId);
    expect(new Set(codexUseIds).size).toBe(2);
    expect(codexResults?.content.map((block) => block.toolResult?.toolUseId)).toEqual(codexUseIds);
  });

  it("continues on Claude a conversation whose tool calls another Bedrock model named (Claude refuses functions.read_file:1 as InvokeModel's tool_use id)", async () => {
    bedrock.answerWith(recordedAnswers);
    const completion = await gateway.openai(key).chat.completions.create({
      model: 'claude-haiku-4-5',
      tools: [{ type: 'function', function: { name: 'read_file', parameters: { type: 'object' } } }],
      messages: [
        { role: 'user', content: 'Read the config.' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'functions.read_file:1', type: 'function', function: { name: 'read_file', arguments: '{"target_file": "src/cursor-config.ts"}' } }] },
        { role: 'tool', tool_call_id: 'functions.read_file:1', content: 'export default {}' },
      ],
    });

    expect(completion.choices[0]?.message.content).toContain('doing well');
    expect(lastRequest()).toMatchObject({
      operation: 'invoke',
      body: {
        messages: [
          { role: 'user' },
          { role: 'assistant', content: [{ type: 'tool_use', id: expect.stringMatching(/^functions_read_file_1_[0-9a-f]{8}$/) }] },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: expect.stringMatching(/^functions_read_file_1_[0-9a-f]{8}$/) }] },
        ],
      },
    });
  });

  it("maps Bedrock's refusal into an OpenAI client's error body", async () => {
    bedrock.answerWith((_request, response) => sendBedrockError(response, 400, 'ValidationException', 'The model returned the following errors: messages: text field is blank'));

    await expect(gateway.openai(key).chat.completions.create({ model: 'nova', messages: [{ role: 'user', content: 'Hi' }] })).rejects.toMatchObject({
      status: 400,
      error: { type: 'invalid_request_error', message: 'The model returned the following errors: messages: text field is blank' },
    });
  });

  it("tells a Messages client a stop at its stop sequence as Anthropic does (stop_reason stop_sequence, the sequence named), and a chat client 'stop'", async () => {
    answerRecordedStopping('stop_sequence');
    const body = { model: 'nova', max_tokens: 100, stop_sequences: ['###'], messages: [{ role: 'user' as const, content: 'strawberry?' }] };

    const streamed = await anthropic().messages.stream(body).finalMessage();
    expect(streamed).toMatchObject({ stop_reason: 'stop_sequence', stop_sequence: '###' });
    expect(lastRequest().body).toMatchObject({ inferenceConfig: { stopSequences: ['###'] } });
    expect(await anthropic().messages.create(body)).toMatchObject({ stop_reason: 'stop_sequence', stop_sequence: '###' });
    // Converse does not say which of several sequences matched: the stop is told, the sequence is not.
    expect(await anthropic().messages.create({ ...body, stop_sequences: ['###', 'END'] })).toMatchObject({ stop_reason: 'stop_sequence', stop_sequence: null });

    const completion = await gateway.openai(key).chat.completions.create({ model: 'nova', stop: ['###'], messages: [{ role: 'user', content: 'strawberry?' }] });
    expect(completion.choices[0]?.finish_reason).toBe('stop');
  });

  it("fails an answer Bedrock ended as malformed (malformed_model_output): a 502 in the client's error body, never a finish, billed as Bedrock counted it", async () => {
    answerRecordedStopping('malformed_model_output');

    await expect(gateway.openai(key, { defaultHeaders: { 'x-request-id': 'bedrock-malformed-json' } }).chat.completions.create({ model: 'nova', messages: [{ role: 'user', content: 'strawberry?' }] })).rejects.toMatchObject({
      status: 502,
      error: { message: 'Provider "bedrock" ended its answer as failed (malformed_model_output).' },
    });
    expect(await generation('bedrock-malformed-json')).toMatchObject({ status: 'failed', http_status: 502, error_code: 'upstream_invalid_response', tokens_prompt: 22, tokens_completion: 57 });
    await expect(anthropic().messages.create({ model: 'nova', max_tokens: 100, messages: [{ role: 'user', content: 'strawberry?' }] })).rejects.toMatchObject({ status: 502, error: { error: { type: 'api_error' } } });

    const stream = await gateway.openai(key, { defaultHeaders: { 'x-request-id': 'bedrock-malformed-stream' } }).chat.completions.create({ model: 'nova', stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'strawberry?' }] });
    const finishes: unknown[] = [];
    const failure = await (async () => {
      for await (const chunk of stream) finishes.push(chunk.choices[0]?.finish_reason);
    })().catch((error: unknown) => error);
    expect(failure).toMatchObject({ message: expect.stringContaining('malformed_model_output') });
    expect(finishes.filter(Boolean)).toEqual([]);
    // The usage Bedrock sends after the messageStop is still metered.
    expect(await generation('bedrock-malformed-stream')).toMatchObject({ status: 'failed', tokens_prompt: 22, tokens_completion: 55 });
  });
});
