import type OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendJson, sendSse, startFakeOpenAiUpstream, type FakeUpstream } from '../support/fake-openai-upstream.ts';
import { startTestGateway, type TestGateway } from '../support/test-gateway.ts';

let gateway: TestGateway;
let anthropic: FakeUpstream;
let key: string;

beforeAll(async () => {
  anthropic = await startFakeOpenAiUpstream();
  gateway = await startTestGateway();
  await gateway.admin({ command: 'project.create', projectId: 'capped' });
  await gateway.admin({ command: 'provider.set', projectId: 'capped', provider: 'anthropic', apiKey: 'sk-ant-upstream-0123456789', baseUrl: anthropic.baseUrl });
  await gateway.admin({ command: 'model.allow', projectId: 'capped', slug: 'anthropic/claude-haiku-4-5' });
  key = (await gateway.admin<{ key: string }>({ command: 'key.create', projectId: 'capped' })).key;
});

afterAll(async () => {
  await gateway?.close();
  await anthropic?.close();
});

/** Codex's apply_patch, a custom (free-text) tool, beside one of its function tools. */
const tools: OpenAI.Responses.Tool[] = [
  { type: 'custom', name: 'apply_patch', description: 'Edit files' },
  { type: 'function', name: 'exec_command', parameters: { type: 'object', properties: { cmd: { type: 'string' } } }, strict: false },
];

/** An Anthropic stream whose one tool_use block `max_tokens` cuts off after `partialJson`. */
function cutOffToolUse(name: string, partialJson: string): string[] {
  const frame = (type: string, data: Record<string, unknown>) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
  return [
    frame('message_start', { message: { id: 'msg_cap', type: 'message', role: 'assistant', model: 'claude-haiku-4-5', content: [], stop_reason: null, usage: { input_tokens: 40, output_tokens: 1 } } }),
    frame('content_block_start', { index: 0, content_block: { type: 'tool_use', id: 'toolu_cap', name, input: {} } }),
    frame('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: partialJson.slice(0, 12) } }),
    frame('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: partialJson.slice(12) } }),
    frame('content_block_stop', { index: 0 }),
    frame('message_delta', { delta: { stop_reason: 'max_tokens', stop_sequence: null }, usage: { output_tokens: 16 } }),
    frame('message_stop', {}),
  ];
}

describe('/v1/responses when Claude’s output cap cuts off a tool call', () => {
  it('streams a cut-off apply_patch call as the text it had received, the call incomplete in response.incomplete', async () => {
    anthropic.answerWith((_request, response) => sendSse(response, cutOffToolUse('apply_patch', '{"input": "*** Begin Patch\\n*** Add Fi')));
    const stream = gateway.openai(key).responses.stream({ model: 'claude-haiku-4-5', input: 'Add a file', tools, max_output_tokens: 16 });
    const inputDeltas: string[] = [];
    const doneItems: unknown[] = [];
    for await (const event of stream) {
      if (event.type === 'response.custom_tool_call_input.delta') inputDeltas.push(event.delta);
      if (event.type === 'response.output_item.done') doneItems.push(event.item);
    }
    const response = await stream.finalResponse();

    expect(inputDeltas.join('')).toBe('*** Begin Patch\n*** Add Fi');
    expect(doneItems).toEqual([expect.objectContaining({ type: 'custom_tool_call', status: 'incomplete', input: '*** Begin Patch\n*** Add Fi' })]);
    expect(response).toMatchObject({ status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } });
    expect(response.output).toEqual([expect.objectContaining({ type: 'custom_tool_call', status: 'incomplete', name: 'apply_patch', input: '*** Begin Patch\n*** Add Fi' })]);
  });

  it('streams a cut-off function call with the arguments it had received, incomplete', async () => {
    anthropic.answerWith((_request, response) => sendSse(response, cutOffToolUse('exec_command', '{"cmd": "git sta')));
    const response = await gateway.openai(key).responses.stream({ model: 'claude-haiku-4-5', input: 'Status?', tools, max_output_tokens: 16 }).finalResponse();
    expect(response.status).toBe('incomplete');
    expect(response.output).toEqual([expect.objectContaining({ type: 'function_call', status: 'incomplete', name: 'exec_command', arguments: '{"cmd": "git sta' })]);
  });

  it('answers a cut-off apply_patch call without its JSON wrapper, incomplete, when not streamed', async () => {
    // Anthropic sends a tool parameter whole or not at all in a complete answer: the cut-off patch is missing.
    const message = { id: 'msg_cap', type: 'message', role: 'assistant', model: 'claude-haiku-4-5', content: [{ type: 'tool_use', id: 'toolu_cap', name: 'apply_patch', input: {} }], stop_reason: 'max_tokens', usage: { input_tokens: 40, output_tokens: 16 } };
    anthropic.answerWith((_request, response) => sendJson(response, 200, message));
    const response = await gateway.openai(key).responses.create({ model: 'claude-haiku-4-5', input: 'Add a file', tools, max_output_tokens: 16 });
    expect(response).toMatchObject({ status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } });
    expect(response.output).toEqual([expect.objectContaining({ type: 'custom_tool_call', status: 'incomplete', name: 'apply_patch', input: '' })]);
  });
});
