import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { isEditorClientRequest } from '../../../shared/protocols/editor-chat/editor-client-detection.ts';
import { readFixture } from '../../support/fixtures.ts';
import { APPLY_PATCH_GRAMMAR, cursorResponsesBody } from './cursor-bodies.ts';

/** The bodies an SDK really sends: its request, caught at its fetch. */
async function sentBy(send: (fetch: typeof globalThis.fetch) => Promise<unknown>): Promise<{ body: string; userAgent: string }> {
  let body = '';
  let userAgent = '';
  await send(async (_url, init) => {
    body = String(init?.body);
    userAgent = new Headers(init?.headers).get('user-agent') ?? '';
    return new Response('{}', { status: 500 });
  }).catch(() => undefined);
  return { body, userAgent };
}

const tools = [{ type: 'function' as const, function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }];

/** What the detection sees of a request: its User-Agent and its body's bytes. */
const requestOf = (text: string, userAgent: string) => ({ headers: { 'user-agent': userAgent }, body: new TextEncoder().encode(text) });

const detected = (body: unknown, userAgent = 'node') => isEditorClientRequest(requestOf(typeof body === 'string' ? body : JSON.stringify(body), userAgent));

describe('isEditorClientRequest on the legacy /v1/chat/completions', () => {
  it('detects the editor by its User-Agent, whatever it sends', () => {
    const recorded = readFixture('editor/cursor-chat-request-parallel-tool-call-turn.json');
    expect(detected(recorded, 'Cursor/3.14.27')).toBe(true);
    expect(detected({ model: 'gpt-5', messages: [{ role: 'user', content: 'hi' }] }, 'cursor/1.0')).toBe(true);
  });

  it('detects the editor’s Responses-shaped body without its User-Agent: input beside messages: [], its conversation id', () => {
    expect(detected(cursorResponsesBody())).toBe(true);
    const { metadata: _metadata, ...withoutConversation } = cursorResponsesBody();
    expect(detected(withoutConversation)).toBe(true);
    expect(detected({ model: 'gpt-5', messages: [{ role: 'user', content: 'hi' }], metadata: { cursorConversationId: 'c1' } })).toBe(true);
  });

  it('detects flat tools: a function without `function`, a custom tool without `custom` (the Ask-mode hybrid)', () => {
    expect(detected({ model: 'gpt-5', messages: [{ role: 'user', content: 'hi' }], tools: [{ type: 'function', name: 'ReadFile', parameters: {} }] })).toBe(true);
    const hybrid = { model: 'gpt-5', messages: [{ role: 'user', content: 'hi' }], tools: [...tools, { type: 'custom', name: 'ApplyPatch', format: { type: 'grammar', syntax: 'lark', definition: APPLY_PATCH_GRAMMAR } }] };
    expect(detected(hybrid)).toBe(true);
  });

  it('never takes the official OpenAI SDK’s chat bodies for the editor’s: plain, streamed, with tools, with a custom tool', async () => {
    const client = (fetch: typeof globalThis.fetch) => new OpenAI({ apiKey: 'gw.x', baseURL: 'http://gateway.test/v1', maxRetries: 0, fetch });
    const bodies = [
      await sentBy((fetch) => client(fetch).chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hello' }] })),
      await sentBy((fetch) => client(fetch).chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hello' }], stream: true, stream_options: { include_usage: true } })),
      await sentBy((fetch) =>
        client(fetch).chat.completions.create({
          model: 'gpt-4o-mini',
          tools,
          messages: [
            { role: 'user', content: 'Weather in Paris? Use the tool with input "Paris".' },
            { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
            { role: 'tool', tool_call_id: 'call_1', content: '18°C' },
          ],
        }),
      ),
      await sentBy((fetch) =>
        client(fetch).chat.completions.create({ model: 'gpt-5', messages: [{ role: 'user', content: 'patch it' }], tools: [{ type: 'custom', custom: { name: 'apply_patch', format: { type: 'text' } } }] }),
      ),
    ];
    for (const { body, userAgent } of bodies) {
      expect(body).toContain('"messages"');
      expect(isEditorClientRequest(requestOf(body, userAgent)), body).toBe(false);
    }
  });

  it('never takes an Anthropic-shaped body (tools with input_schema, as Claude Code sends them) for the editor’s', async () => {
    const { body, userAgent } = await sentBy((fetch) =>
      new Anthropic({ apiKey: 'gw.x', baseURL: 'http://gateway.test', maxRetries: 0, fetch }).messages.create({
        model: 'claude-haiku-4-5',
        max_tokens: 100,
        system: 'You are Claude Code.',
        messages: [{ role: 'user', content: 'Hello' }],
        tools: [
          { name: 'Read', description: 'Reads a file.', input_schema: { type: 'object', properties: { input: { type: 'string' } } } },
          { type: 'custom', name: 'Edit', input_schema: { type: 'object', properties: {} } },
        ],
      }),
    );
    expect(body).toContain('"input_schema"');
    expect(isEditorClientRequest(requestOf(body, userAgent))).toBe(false);
  });

  it('reads no body that holds none of the editor’s markers, and refuses none that is not JSON', () => {
    expect(detected('{"model":"gpt-4o","messages":[{"role":"user","content":"say \\"input\\""}]}')).toBe(false);
    expect(detected('{"input": ')).toBe(false);
  });
});
