import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendJson, sendSse, sseEvents, startFakeOpenAiUpstream, type FakeUpstream } from '../support/fake-openai-upstream.ts';
import { readFixture } from '../support/fixtures.ts';
import { refusalOfOpenAi } from '../support/openai-refusals.ts';
import { startTestGateway, type TestGateway } from '../support/test-gateway.ts';

/**
 * Requests Anthropic's clients really send (the Anthropic SDK's shapes, Claude Code's), translated for
 * OpenAI's models, reasoning and not, against an upstream that refuses what OpenAI refuses
 * (test/support/openai-refusals.ts): each must be taken.
 */
let gateway: TestGateway;
let openai: FakeUpstream;
let key: string;

const MODELS = ['gpt-4o-mini', 'gpt-4.1', 'o3', 'gpt-5'];

beforeAll(async () => {
  openai = await startFakeOpenAiUpstream();
  openai.answerWith((request, response) => {
    const refusal = refusalOfOpenAi(request.body);
    if (refusal) return sendJson(response, 400, refusal);
    if (request.body.stream === true) return void sendSse(response, sseEvents(readFixture('openai-chat/chat-stream-text-include-usage.sse')));
    return sendJson(response, 200, JSON.parse(readFixture('openai-chat/chat-nonstream-text-usage-details.json')));
  });
  gateway = await startTestGateway();
  await gateway.admin({ command: 'project.create', projectId: 'strict-openai' });
  await gateway.admin({ command: 'provider.set', projectId: 'strict-openai', provider: 'openai', apiKey: 'sk-openai-upstream-0123456789', baseUrl: openai.baseUrl });
  for (const model of MODELS) await gateway.admin({ command: 'model.allow', projectId: 'strict-openai', slug: `openai/${model}`, inputMicrosPer1k: 1000, outputMicrosPer1k: 4000 });
  key = (await gateway.admin<{ key: string }>({ command: 'key.create', projectId: 'strict-openai' })).key;
}, 120_000);

afterAll(async () => {
  await gateway?.close();
  await openai?.close();
});

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const weather = { name: 'get_weather', description: 'Weather now', input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } };
const toolLoop = [
  { role: 'user', content: 'Weather in Paris and London?' },
  {
    role: 'assistant',
    content: [
      { type: 'text', text: 'Checking both.' },
      { type: 'tool_use', id: 'toolu_01A09q90qw90lq917835lq9', name: 'get_weather', input: { city: 'Paris' } },
      { type: 'tool_use', id: 'toolu_01B19q90qw90lq917835lq8', name: 'get_weather', input: { city: 'London' } },
    ],
  },
  {
    role: 'user',
    content: [
      { type: 'tool_result', tool_use_id: 'toolu_01A09q90qw90lq917835lq9', content: '18°C' },
      { type: 'tool_result', tool_use_id: 'toolu_01B19q90qw90lq917835lq8', content: [{ type: 'text', text: '12°C' }], is_error: false },
      { type: 'text', text: 'Which is warmer?' },
    ],
  },
];

/** Messages bodies, each with what it exercises. */
const MESSAGES_BODIES: Array<[string, Record<string, unknown>]> = [
  ['sampling, top_k and six stop sequences', { messages: [{ role: 'user', content: 'Hi' }], temperature: 0.5, top_p: 0.9, top_k: 40, stop_sequences: ['a', 'b', 'c', 'd', 'e', 'f'] }],
  ['a tool loop with parallel calls and text beside the results', { messages: toolLoop, tools: [weather] }],
  ['a forced tool, parallel use off', { messages: [{ role: 'user', content: 'Paris?' }], tools: [weather], tool_choice: { type: 'tool', name: 'get_weather', disable_parallel_tool_use: true } }],
  ['tool_choice none and any', { messages: [{ role: 'user', content: 'Paris?' }], tools: [weather], tool_choice: { type: 'any' } }],
  ['a thinking budget', { messages: [{ role: 'user', content: 'Hi' }], thinking: { type: 'enabled', budget_tokens: 10_000 }, max_tokens: 16_000 }],
  ['Claude Code: adaptive thinking, an effort, context management, cache marks, a long user id and a 32,000 cap', {
    system: [{ type: 'text', text: 'You are Claude Code.', cache_control: { type: 'ephemeral' } }],
    messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi', cache_control: { type: 'ephemeral' } }] }],
    tools: [{ ...weather, cache_control: { type: 'ephemeral' } }],
    thinking: { type: 'adaptive' }, output_config: { effort: 'high' }, context_management: { edits: [{ type: 'clear_thinking_20251015', keep: 'all' }] },
    metadata: { user_id: JSON.stringify({ device_id: 'd'.repeat(64), account_uuid: '', session_id: '4f0c1d9e-6b2a-4b7e-9a51-0c2f3e4d5a6b' }) },
    max_tokens: 32_000, stream: true,
  }],
  ['an image, a URL image and a PDF', {
    messages: [{
      role: 'user',
      content: [
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
        { type: 'image', source: { type: 'url', url: 'https://example.com/cat.png' } },
        { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0xLjQ=' }, title: 'a.pdf' },
        { type: 'text', text: 'What are these?' },
      ],
    }],
  }],
  ['a PDF without a title', { messages: [{ role: 'user', content: [{ type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0xLjQ=' } }, { type: 'text', text: 'Summarise' }] }] }],
  ['an earlier signed thinking block and a prefill', {
    messages: [
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: [{ type: 'thinking', thinking: 'Hmm', signature: 'EqQBCkYI' }, { type: 'text', text: 'Hello' }] },
      { role: 'user', content: 'Again' },
      { role: 'assistant', content: 'Sure,' },
    ],
  }],
];

describe('Messages translated for OpenAI, against an upstream that refuses what OpenAI refuses', () => {
  for (const model of MODELS) {
    it.each(MESSAGES_BODIES)(`takes %s on ${model}`, async (_what, body) => {
      const response = await fetch(`${gateway.url}/v1/messages`, {
        method: 'POST',
        headers: { 'x-api-key': key, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
        body: JSON.stringify({ model: `openai/${model}`, max_tokens: 1024, ...body }),
      });
      expect(response.status, await response.clone().text()).toBe(200);
      if (body.stream === true) expect(await response.text()).toContain('event: message_stop');
      else expect(((await response.json()) as { type: string }).type).toBe('message');
    });
  }
});
