import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../../shared/core/errors.ts';
import { withoutGatewayFields } from '../../../shared/pipeline/generation-endpoint.ts';
import { editorChatProtocol } from '../../../shared/protocols/editor-chat/editor-chat-protocol.ts';
import { editorProfileOf, parseEditorRequest } from '../../../shared/protocols/editor-chat/editor-request.ts';
import { writeEditorResponsesBody } from '../../../shared/protocols/editor-chat/editor-responses-rewrite.ts';
import { MCP_INSTRUCTIONS_MAX_CHARS } from '../../../shared/protocols/editor-chat/editor-prompt-compression.ts';
import { readFixture } from '../../support/fixtures.ts';
import { APPLY_PATCH_GRAMMAR, cursorResponsesBody, LONG_SERVER_INSTRUCTIONS, PATCH, SYSTEM_PROMPT, TOOL_TURN_ITEMS } from './cursor-bodies.ts';

/** The body that goes to a provider serving the Responses API, as JSON sees it. */
const upstreamBodyOf = (body: unknown, upstreamModel = 'gpt-5.4') =>
  JSON.parse(JSON.stringify(writeEditorResponsesBody(withoutGatewayFields(parseEditorRequest(JSON.stringify(body))), upstreamModel))) as Record<string, unknown>;

const refusal = (body: unknown) => {
  try {
    parseEditorRequest(JSON.stringify(body));
  } catch (error) {
    return error as GatewayError;
  }
  throw new Error('accepted');
};

describe('the editor profile on a Responses-shaped agent body', () => {
  it('sends upstream what the Responses API takes: chat-only fields gone, the conversation as the cache key, priority for "fast"', () => {
    const upstream = upstreamBodyOf(cursorResponsesBody());
    expect(Object.keys(upstream).sort()).toEqual(
      ['include', 'input', 'model', 'prompt_cache_key', 'prompt_cache_retention', 'reasoning', 'service_tier', 'store', 'stream', 'tools', 'user'].sort(),
    );
    expect(upstream).toMatchObject({
      model: 'gpt-5.4',
      user: '95dfaae8bbc5aaa3',
      store: false,
      include: ['reasoning.encrypted_content'],
      reasoning: { effort: 'medium', summary: 'auto' },
      stream: true,
      prompt_cache_retention: '24h',
      prompt_cache_key: '5e66cef0-7372-496e-aa21-476a66401a2a',
      service_tier: 'priority',
    });
  });

  it('keeps flat tools, gives function tools strict: false, and keeps ApplyPatch custom with its grammar', () => {
    expect(upstreamBodyOf(cursorResponsesBody()).tools).toEqual([
      { type: 'function', name: 'ReadFile', description: 'Read a file.', parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] }, strict: false },
      { type: 'custom', name: 'ApplyPatch', description: 'Use this tool to edit files.', format: { type: 'grammar', syntax: 'lark', definition: APPLY_PATCH_GRAMMAR } },
    ]);
  });

  it('replays tool results as the API takes them: ApplyPatch history as custom_tool_call(_output), call ids kept, output_text outputs as input_text, empty assistant turns and blob-less reasoning dropped', () => {
    const upstream = upstreamBodyOf(cursorResponsesBody('fix the bug', TOOL_TURN_ITEMS));
    expect((upstream.input as unknown[]).slice(3)).toEqual([
      { type: 'function_call', call_id: 'call_1', name: 'ReadFile', arguments: '{"path":"src/app.ts"}' },
      { type: 'function_call_output', call_id: 'call_1', output: [{ type: 'input_text', text: 'const a = 1;' }] },
      { type: 'custom_tool_call', call_id: 'call_2', name: 'ApplyPatch', input: PATCH },
      { type: 'custom_tool_call_output', call_id: 'call_2', output: 'Done.' },
    ]);
  });

  it('keeps reasoning items that carry their encrypted content, and every item when the response is stored', () => {
    const withBlob = { type: 'reasoning', id: 'rs_2', summary: [], encrypted_content: 'gAAAA' };
    expect(upstreamBodyOf(cursorResponsesBody('q', [withBlob])).input).toContainEqual(withBlob);
    const stored = { ...cursorResponsesBody('q', [{ type: 'reasoning', id: 'rs_1', summary: [] }]), store: true };
    expect(upstreamBodyOf(stored).input).toContainEqual({ type: 'reasoning', id: 'rs_1', summary: [] });
  });

  it('drops a tool output whose call the editor trimmed from the history (the API refuses an orphan output)', () => {
    const upstream = upstreamBodyOf(cursorResponsesBody('q', [{ type: 'function_call_output', call_id: 'call_gone', output: 'stale' }]));
    expect(JSON.stringify(upstream.input)).not.toContain('call_gone');
  });

  it('takes out the think block the bridge wrote from replayed assistant turns, and counts it as compression', () => {
    const turn = { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: '<think>\nLooking at the file.\n</think>\n\nThe bug is on line 1.' }] };
    const request = parseEditorRequest(JSON.stringify(cursorResponsesBody('q', [turn])));
    expect(request.input.at(-1)).toEqual({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'The bug is on line 1.' }] });
    expect(editorProfileOf(request).compaction).toContainEqual({ before: '<think>\nLooking at the file.\n</think>\n\n', after: '' });
  });

  it('remembers what the client asked for and its conversation, outside the body', () => {
    const request = parseEditorRequest(JSON.stringify(cursorResponsesBody()));
    expect(editorProfileOf(request)).toMatchObject({ shape: 'responses', includeUsage: true, conversationId: '5e66cef0-7372-496e-aa21-476a66401a2a' });
    expect(editorChatProtocol.clientAskedForStreamUsage(withoutGatewayFields(request))).toBe(true);
    expect(JSON.stringify(request)).not.toContain('includeUsage');
  });

  it('compresses the MCP block of the system prompt, the user query untouched', () => {
    const input = upstreamBodyOf(cursorResponsesBody()).input as Array<{ content: unknown }>;
    const system = String(input[0]?.content);
    expect(system).not.toContain(LONG_SERVER_INSTRUCTIONS);
    expect(system).toContain('name="user-tracker" folderPath="/home/dev/.cursor/projects/app/mcps/user-tracker" serverUseInstructions="Use this server');
    expect(system.length).toBeLessThan(SYSTEM_PROMPT.length - LONG_SERVER_INSTRUCTIONS.length + MCP_INSTRUCTIONS_MAX_CHARS + 1);
    expect(input[2]?.content).toEqual([{ type: 'input_text', text: '<timestamp>Monday</timestamp>\n<user_query>\nfix the bug\n</user_query>' }]);
  });
});

describe('the editor profile on chat-shaped bodies', () => {
  it('turns a recorded Cursor turn with parallel tool results into Responses items, call ids and texts kept', () => {
    const recorded = JSON.parse(readFixture('editor/cursor-chat-request-parallel-tool-results.json')) as { messages: Array<{ role: string; content: string; tool_call_id?: string }> };
    const upstream = upstreamBodyOf(recorded, 'gpt-5');
    const [system, context, query, assistant, firstResult, secondResult] = recorded.messages;
    expect(upstream.input).toEqual([
      { type: 'message', role: 'system', content: system?.content },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: context?.content }] },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: query?.content }] },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: assistant?.content }] },
      { type: 'function_call', call_id: 'call_Dke46usJNOchzqyvXSJQQMXP', name: 'REDACTED', arguments: expect.stringContaining('"pattern":"foo"') },
      { type: 'function_call', call_id: 'call_jefCQLGSyAUpkBE78xklruzf', name: 'REDACTED', arguments: expect.stringContaining('"pattern":"bar"') },
      { type: 'function_call_output', call_id: 'call_Dke46usJNOchzqyvXSJQQMXP', output: firstResult?.content },
      { type: 'function_call_output', call_id: 'call_jefCQLGSyAUpkBE78xklruzf', output: secondResult?.content },
    ]);
  });

  it('drops the temperature GPT-5 refuses, flattens the nested tools with strict: false, and keeps tool_choice and reasoning', () => {
    const recorded = JSON.parse(readFixture('editor/cursor-chat-request-parallel-tool-call-turn.json')) as { tools: Array<{ function: { name: string; parameters: unknown } }> };
    const upstream = upstreamBodyOf(recorded, 'gpt-5');
    expect(upstream).not.toHaveProperty('temperature');
    expect(upstream).not.toHaveProperty('messages');
    expect(upstream).toMatchObject({ model: 'gpt-5', stream: true, tool_choice: 'auto', reasoning: { effort: 'minimal' }, user: 'REDACTED' });
    expect((upstream.tools as unknown[])[0]).toEqual({ type: 'function', name: 'REDACTED', description: 'REDACTED', parameters: recorded.tools[0]?.function.parameters, strict: false });
  });

  it('keeps the temperature for a model that is not a reasoning model', () => {
    const chat = { model: 'gpt-4o', temperature: 0, messages: [{ role: 'user', content: 'hi' }] };
    expect(upstreamBodyOf(chat, 'gpt-4o')).toMatchObject({ temperature: 0 });
    // Another server's model may reason whatever its id: asked for reasoning, it gets it, without sampling parameters.
    expect(upstreamBodyOf({ ...chat, reasoning_effort: 'low' }, 'gpt-4o')).toMatchObject({ reasoning: { effort: 'low' } });
    expect(upstreamBodyOf({ ...chat, reasoning_effort: 'low' }, 'gpt-4o')).not.toHaveProperty('temperature');
  });

  it('sends a model of OpenAI’s own API that does not reason none of the reasoning fields the editor always sends (a 400 there), and keeps its temperature', () => {
    const openAi = { maxCompletionTokens: true, reasoningObject: false, reasoningModel: false };
    const reasoningItem = { type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'gAAAA' };
    const body = { ...cursorResponsesBody('q', [reasoningItem]), temperature: 0 };
    const upstream = JSON.parse(JSON.stringify(writeEditorResponsesBody(withoutGatewayFields(parseEditorRequest(JSON.stringify(body))), 'gpt-4o', openAi))) as Record<string, unknown>;
    expect(upstream).not.toHaveProperty('reasoning');
    expect(upstream).not.toHaveProperty('include');
    expect(upstream.input).not.toContainEqual(expect.objectContaining({ type: 'reasoning' }));
    expect(upstream).toMatchObject({ model: 'gpt-4o', temperature: 0, store: false });
    // The same API's reasoning models keep them all, without the temperature they refuse.
    const reasoning = writeEditorResponsesBody(withoutGatewayFields(parseEditorRequest(JSON.stringify(body))), 'gpt-5', { ...openAi, reasoningModel: true });
    expect(reasoning).toMatchObject({ reasoning: { effort: 'medium' }, include: ['reasoning.encrypted_content'] });
    expect(reasoning.input).toContainEqual(reasoningItem);
    expect(reasoning).not.toHaveProperty('temperature');
    // A model whose id says nothing (an Azure deployment's name, a fine-tune of a reasoning model) may reason: it keeps them too.
    for (const unknown of ['prod-deployment', 'ft:o4-mini-2025-04-16:acme::abc123']) {
      const kept = writeEditorResponsesBody(withoutGatewayFields(parseEditorRequest(JSON.stringify(body))), unknown, { maxCompletionTokens: true, reasoningObject: false });
      expect(kept, unknown).toMatchObject({ reasoning: { effort: 'medium' } });
      expect(kept, unknown).not.toHaveProperty('temperature');
    }
    // A deployment's name the admin marked as not reasoning (`--reasoning no`) is believed.
    const marked = writeEditorResponsesBody(withoutGatewayFields(parseEditorRequest(JSON.stringify(body))), 'prod-gpt4o', { ...openAi, reasoningMarked: false });
    expect(marked).not.toHaveProperty('reasoning');
    expect(marked).toMatchObject({ temperature: 0 });
  });

  it('reads the Ask-mode hybrid: a flat custom ApplyPatch among nested function tools, and an assistant turn with content: []', () => {
    const hybrid = {
      model: 'gpt-5.5',
      stream: true,
      stream_options: { include_usage: true },
      max_tokens: 2000,
      tools: [
        { type: 'function', function: { name: 'ReadFile', parameters: { type: 'object', properties: {} } } },
        { type: 'custom', name: 'ApplyPatch', description: 'Edit files.', format: { type: 'grammar', syntax: 'lark', definition: APPLY_PATCH_GRAMMAR } },
      ],
      tool_choice: { type: 'function', function: { name: 'ApplyPatch' } },
      messages: [
        { role: 'user', content: 'edit it' },
        { role: 'assistant', content: [], tool_calls: [{ id: 'call_9', type: 'function', function: { name: 'ApplyPatch', arguments: PATCH } }] },
        { role: 'tool', tool_call_id: 'call_9', content: [{ type: 'text', text: 'Applied.' }] },
      ],
    };
    const upstream = upstreamBodyOf(hybrid, 'gpt-5.5');
    expect(upstream.tools).toEqual([
      { type: 'function', name: 'ReadFile', parameters: { type: 'object', properties: {} }, strict: false },
      { type: 'custom', name: 'ApplyPatch', description: 'Edit files.', format: { type: 'grammar', syntax: 'lark', definition: APPLY_PATCH_GRAMMAR } },
    ]);
    expect(upstream.tool_choice).toEqual({ type: 'custom', name: 'ApplyPatch' });
    expect(upstream.max_output_tokens).toBe(2000);
    expect(upstream.input).toEqual([
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'edit it' }] },
      { type: 'custom_tool_call', call_id: 'call_9', name: 'ApplyPatch', input: PATCH },
      { type: 'custom_tool_call_output', call_id: 'call_9', output: [{ type: 'input_text', text: 'Applied.' }] },
    ]);
    expect(upstream).not.toHaveProperty('stream_options');
    expect(upstream).not.toHaveProperty('max_tokens');
  });

  it('reads a chat-shaped body into canonical terms for providers without the Responses API', () => {
    const recorded = JSON.parse(readFixture('editor/cursor-chat-request-parallel-tool-results.json')) as unknown;
    const canonical = editorChatProtocol.readRequest(withoutGatewayFields(parseEditorRequest(JSON.stringify(recorded))));
    expect(canonical.messages.map((message) => message.role)).toEqual(['system', 'user', 'user', 'assistant', 'tool']);
    expect(canonical.messages[3]?.parts.filter((part) => part.type === 'tool-call').map((part) => (part as { id: string }).id)).toEqual(['call_Dke46usJNOchzqyvXSJQQMXP', 'call_jefCQLGSyAUpkBE78xklruzf']);
    expect(canonical.tools[0]).toMatchObject({ name: 'REDACTED', strict: false });
  });
});

describe('the editor profile refuses what it cannot send, saying what to change', () => {
  it.each([
    [{ model: 'gpt-5' }, 'missing_conversation', /send "input" .* or "messages"/],
    [{ model: 'gpt-5', input: 'a', messages: [{ role: 'user', content: 'b' }] }, 'ambiguous_conversation', /both "input" and "messages"/],
    [{ model: 'gpt-5', input: 'a', background: true }, 'background_not_supported', /Background responses/],
    [{ messages: [] }, 'missing_model', /"model" is required/],
    [{ model: 'gpt-5', input: [{ type: 'message', role: 'user', content: 7 }] }, 'invalid_request_body', /input\.0\.content/],
  ])('%j → 400 %s', (body, code, message) => {
    expect(refusal(body)).toMatchObject({ status: 400, code, message: expect.stringMatching(message) });
  });
});
