import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordedAnthropicAnswer, refusingThinkingBudget } from '../support/fake-anthropic-upstream.ts';
import { startFakeOpenAiUpstream, type FakeUpstream } from '../support/fake-openai-upstream.ts';
import { createProjectWithKey, startTestGateway, type TestGateway } from '../support/test-gateway.ts';

/** A chat client's reasoning settings (OpenAI's `reasoning_effort`, OpenRouter's `reasoning`) as Claude's thinking. */
let gateway: TestGateway;
let anthropic: FakeUpstream;
let key: string;

beforeAll(async () => {
  anthropic = await startFakeOpenAiUpstream();
  gateway = await startTestGateway();
  key = await createProjectWithKey(gateway, {
    projectId: 'thinking',
    provider: 'anthropic',
    protocol: 'anthropic',
    apiKey: 'sk-ant-upstream-0123456789',
    baseUrl: anthropic.baseUrl,
    models: [
      { slug: 'anthropic/claude-haiku-4-5', inputMicrosPer1k: 1000, outputMicrosPer1k: 5000 },
      { slug: 'anthropic/claude-opus-4-7', inputMicrosPer1k: 5000, outputMicrosPer1k: 25000 },
    ],
  });
});

afterAll(async () => {
  await gateway.close();
  await anthropic.close();
});

const multiply = { type: 'function' as const, function: { name: 'multiply', description: 'Multiplies', parameters: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } } } };

describe('/v1/chat/completions with reasoning_effort on a Claude model that takes adaptive thinking only', () => {
  it('thinks on Claude Opus 4.7 with adaptive thinking at the effort asked for, where a thinking budget gets a 400', async () => {
    anthropic.answerWith(refusingThinkingBudget(recordedAnthropicAnswer({ stream: 'anthropic/messages-stream-thinking.sse' })));
    anthropic.received.length = 0;

    const stream = await gateway.openai(key).chat.completions.create({
      model: 'anthropic/claude-opus-4-7',
      stream: true,
      reasoning_effort: 'high',
      messages: [{ role: 'user', content: 'Two names for a pet pelican, be brief' }],
    });
    let text = '';
    let finish: string | null = null;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      finish = chunk.choices[0]?.finish_reason ?? finish;
    }

    expect(text).toContain('Pouch');
    expect(finish).toBe('stop');
    const sent = anthropic.received[0]?.body;
    expect(sent).toMatchObject({ model: 'claude-opus-4-7', thinking: { type: 'adaptive' }, output_config: { effort: 'high' } });
    expect(sent?.thinking).not.toHaveProperty('budget_tokens');
  });
});

describe("/v1/chat/completions with OpenRouter's reasoning setting on a Claude model", () => {
  it('thinks within the budget its max_tokens gives, sent through the OpenAI SDK as extra body', async () => {
    anthropic.answerWith(recordedAnthropicAnswer({ stream: 'anthropic/messages-stream-thinking.sse' }));
    anthropic.received.length = 0;
    const body = { model: 'anthropic/claude-haiku-4-5', stream: true as const, messages: [{ role: 'user' as const, content: 'Two names for a pet pelican, be brief' }] };
    // What OpenRouter's clients send: the SDK has no `reasoning` field on chat, so it rides in the body as is.
    const { data: stream, response } = await gateway.openai(key).chat.completions.create({ ...body, reasoning: { max_tokens: 3000 } } as typeof body).withResponse();
    let text = '';
    let reasoning = '';
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      // In OpenRouter's field, as the client spoke OpenRouter's setting.
      reasoning += (chunk.choices[0]?.delta as { reasoning?: string } | undefined)?.reasoning ?? '';
      expect(chunk.choices[0]?.delta).not.toHaveProperty('reasoning_content');
    }

    expect(text).toContain('Pouch');
    expect(reasoning.length).toBeGreaterThan(0);
    expect(anthropic.received[0]?.body).toMatchObject({ model: 'claude-haiku-4-5', thinking: { type: 'enabled', budget_tokens: 3000 } });
    expect(response.headers.get('x-gateway-dropped-fields')).toBeNull();
  });

  it('thinks but shows no reasoning when exclude is set, whole or streamed', async () => {
    anthropic.answerWith(recordedAnthropicAnswer({ stream: 'anthropic/messages-stream-thinking.sse' }));
    const body = { model: 'anthropic/claude-haiku-4-5', stream: true as const, messages: [{ role: 'user' as const, content: 'Two names for a pet pelican, be brief' }] };
    const stream = await gateway.openai(key).chat.completions.create({ ...body, reasoning: { effort: 'low', exclude: true } } as typeof body);
    let text = '';
    const shown: unknown[] = [];
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      const delta = chunk.choices[0]?.delta;
      if (delta && ('reasoning' in delta || 'reasoning_content' in delta)) shown.push(delta);
    }
    expect(text).toContain('Pouch');
    expect(shown).toEqual([]);
    expect(anthropic.received.at(-1)?.body).toMatchObject({ thinking: { type: 'enabled', budget_tokens: 1024 } });

    anthropic.answerWith(recordedAnthropicAnswer({ json: 'anthropic/messages-nonstream-thinking-text-tool-use.json' }));
    const whole = { model: 'anthropic/claude-haiku-4-5', messages: body.messages, tools: [multiply] };
    const reasoningOf = async (reasoning: Record<string, unknown>) => {
      const completion = await gateway.openai(key).chat.completions.create({ ...whole, reasoning } as typeof whole);
      expect(completion.choices[0]?.message.tool_calls?.length).toBe(1);
      return (completion.choices[0]?.message as { reasoning?: string }).reasoning;
    };
    expect(await reasoningOf({ effort: 'low' })).toContain('get_user_country');
    expect(await reasoningOf({ effort: 'low', exclude: true })).toBeUndefined();
    // OpenRouter's legacy switch hides it too, and is not named as a dropped field: the gateway applied it.
    const legacy = await gateway
      .openai(key)
      .chat.completions.create({ ...whole, reasoning: { effort: 'low' }, include_reasoning: false } as typeof whole)
      .withResponse();
    expect(legacy.data.choices[0]?.message).not.toHaveProperty('reasoning');
    expect(legacy.data.choices[0]?.message).not.toHaveProperty('reasoning_content');
    expect(legacy.response.headers.get('x-gateway-dropped-fields') ?? '').not.toContain('include_reasoning');
  });
});
