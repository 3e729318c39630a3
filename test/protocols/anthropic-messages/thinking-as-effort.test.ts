import { describe, expect, it } from 'vitest';
import { capsWithMaxCompletionTokens } from '../../../shared/core/provider-catalog.ts';
import { isKnownNonReasoningOpenAiModel, isOpenAiReasoningModel } from '../../../shared/core/reasoning-models.ts';
import { anthropicMessagesProtocol } from '../../../shared/protocols/anthropic-messages/anthropic-messages-protocol.ts';
import { bedrockConverseProtocol } from '../../../shared/protocols/bedrock-converse/bedrock-converse-protocol.ts';
import { openAiChatProtocol } from '../../../shared/protocols/openai-chat/openai-chat-protocol.ts';
import { openAiResponsesProtocol } from '../../../shared/protocols/openai-responses/openai-responses-protocol.ts';
import type { UpstreamProtocol } from '../../../shared/protocols/wire-protocol.ts';
import { NO_EXTRA_FEATURES, OPENAI_FEATURES } from '../../support/upstream-features.ts';

/** A Messages body (as Claude Code sends it) written for an OpenAI-protocol upstream, with the fields named as dropped. */
function translate(body: Record<string, unknown>, upstreamModel: string, upstream: UpstreamProtocol = openAiChatProtocol, features = OPENAI_FEATURES) {
  const canonical = anthropicMessagesProtocol.readRequest({ model: 'claude-sonnet-4-5', max_tokens: 32000, messages: [{ role: 'user', content: 'Plan the refactor' }], ...body });
  return { body: upstream.writeRequest(canonical, upstreamModel, features), dropped: canonical.dropped.list() };
}

describe("An Anthropic client's thinking sent to an OpenAI reasoning model", () => {
  it.each([
    [1024, 'low'],
    [4000, 'medium'],
    [10000, 'high'],
    [31999, 'high'],
  ])('asks for the effort nearest a thinking budget of %i tokens (%s)', (budget, effort) => {
    const { body, dropped } = translate({ thinking: { type: 'enabled', budget_tokens: budget } }, 'gpt-5');
    expect(body.reasoning_effort).toBe(effort);
    expect(dropped).not.toContain('thinking');
  });

  it("sends adaptive thinking at its output_config effort (max as high), and without one leaves the model's default", () => {
    expect(translate({ thinking: { type: 'adaptive' }, output_config: { effort: 'low' } }, 'o3').body.reasoning_effort).toBe('low');
    expect(translate({ thinking: { type: 'adaptive' }, output_config: { effort: 'max' } }, 'o3').body.reasoning_effort).toBe('high');
    const withoutEffort = translate({ thinking: { type: 'adaptive' } }, 'o3');
    expect(withoutEffort.body).not.toHaveProperty('reasoning_effort');
    expect(withoutEffort.dropped).toEqual([]);
  });

  it('lets an output_config effort win over the effort a budget would give, and reads an effort sent without thinking', () => {
    expect(translate({ thinking: { type: 'enabled', budget_tokens: 31999 }, output_config: { effort: 'low' } }, 'gpt-5').body.reasoning_effort).toBe('low');
    expect(translate({ output_config: { effort: 'medium' } }, 'gpt-5').body.reasoning_effort).toBe('medium');
  });

  it('sends the effort to a Responses-only model as reasoning.effort', () => {
    const { body } = translate({ thinking: { type: 'enabled', budget_tokens: 10000 } }, 'gpt-5-codex', openAiResponsesProtocol);
    expect(body.reasoning).toEqual({ effort: 'high' });
  });

  it('sends no temperature or top_p, which reasoning models refuse, and names them as dropped', () => {
    const { body, dropped } = translate({ thinking: { type: 'enabled', budget_tokens: 4000 }, temperature: 1, top_p: 0.9 }, 'openai/gpt-5-mini');
    expect(body).not.toHaveProperty('temperature');
    expect(body).not.toHaveProperty('top_p');
    expect(dropped).toEqual(['temperature', 'top_p']);
    const responses = translate({ temperature: 0.7 }, 'gpt-5-codex', openAiResponsesProtocol);
    expect(responses.body).not.toHaveProperty('temperature');
    expect(responses.dropped).toEqual(['temperature']);
  });
});

describe("An Anthropic client's thinking sent to a model that does not reason", () => {
  it.each(['gpt-4o', 'gpt-4.1-mini', 'gpt-5-chat-latest', 'llama-3.3-70b'])('leaves it out for %s and names it as dropped', (model) => {
    const { body, dropped } = translate({ thinking: { type: 'enabled', budget_tokens: 10000 }, temperature: 1 }, model);
    expect(body).not.toHaveProperty('reasoning_effort');
    expect(body).toMatchObject({ temperature: 1 });
    expect(dropped).toEqual(['thinking']);
  });

  it('names it as dropped on Bedrock Converse too, not as a reasoning_effort the client never sent', () => {
    const { dropped } = translate({ thinking: { type: 'enabled', budget_tokens: 10000 } }, 'amazon.nova-pro-v1:0', bedrockConverseProtocol, NO_EXTRA_FEATURES);
    expect(dropped).toEqual(['thinking']);
  });
});

describe('What else an Anthropic client sends about thinking', () => {
  it('asks for nothing and names nothing when thinking is disabled', () => {
    const { body, dropped } = translate({ thinking: { type: 'disabled' } }, 'gpt-5');
    expect(body).not.toHaveProperty('reasoning_effort');
    expect(dropped).toEqual([]);
  });

  it('names a thinking type or an effort it does not know, a format without a schema, and an output_config that holds more than it reads', () => {
    expect(translate({ thinking: { type: 'deliberate' } }, 'gpt-5').dropped).toEqual(['thinking']);
    expect(translate({ output_config: { effort: 'extreme' } }, 'gpt-5').dropped).toEqual(['output_config.effort']);
    expect(translate({ output_config: { effort: 'low', format: { type: 'json_schema' } } }, 'gpt-5').dropped).toEqual(['output_config.format']);
    expect(translate({ output_config: { effort: 'low', task_budget: 1000 } }, 'gpt-5').dropped).toEqual(['output_config']);
  });

  it("keeps a chat client's own reasoning_effort for any model: the client asked for it", () => {
    const canonical = openAiChatProtocol.readRequest({ model: 'x', messages: [{ role: 'user', content: 'hi' }], reasoning_effort: 'high' });
    expect(openAiResponsesProtocol.writeRequest(canonical, 'gpt-4o', OPENAI_FEATURES).reasoning).toEqual({ effort: 'high' });
  });
});

describe("The answer's cap on OpenAI's chat completions", () => {
  it("is max_completion_tokens for OpenAI's own API, which its reasoning models require, and max_tokens for other servers", () => {
    expect(translate({}, 'gpt-5').body).toMatchObject({ max_completion_tokens: 32000 });
    expect(translate({}, 'gpt-5').body).not.toHaveProperty('max_tokens');
    expect(translate({}, 'llama-3.3-70b', openAiChatProtocol, NO_EXTRA_FEATURES).body).toMatchObject({ max_tokens: 32000 });
  });

  it('is asked of OpenAI and Azure OpenAI, and not of OpenRouter or other OpenAI-compatible servers', () => {
    expect(capsWithMaxCompletionTokens('openai', 'https://api.openai.com/v1')).toBe(true);
    expect(capsWithMaxCompletionTokens('azure', 'https://contoso.openai.azure.com/openai/v1')).toBe(true);
    expect(capsWithMaxCompletionTokens('openrouter', 'https://openrouter.ai/api/v1')).toBe(false);
    expect(capsWithMaxCompletionTokens('groq', 'https://api.groq.com/openai/v1')).toBe(false);
  });
});

describe('isOpenAiReasoningModel', () => {
  it("knows OpenAI's reasoning families by their id, whoever serves them, and not GPT-5's chat models", () => {
    for (const model of ['o1', 'o3-mini', 'o4-mini', 'gpt-5', 'gpt-5.1-codex', 'openai/gpt-5-nano', 'codex-mini-latest', 'gpt-6', 'gpt-10-mini']) expect(isOpenAiReasoningModel(model)).toBe(true);
    for (const model of ['gpt-4o', 'gpt-5-chat-latest', 'gpt-5.1-chat-latest', 'gpt-6-chat-latest', 'gpt-4.1', 'omni-moderation-latest', 'claude-opus-4-7']) expect(isOpenAiReasoningModel(model)).toBe(false);
    // A fine-tune keeps its base model's nature.
    expect(isOpenAiReasoningModel('ft:o4-mini-2025-04-16:acme::abc123')).toBe(true);
    expect(isOpenAiReasoningModel('ft:gpt-4o-mini-2024-07-18:acme::abc123')).toBe(false);
  });
});

describe('isKnownNonReasoningOpenAiModel', () => {
  it('knows the ids of OpenAI’s models that do not reason, and takes no id it does not know for one', () => {
    for (const model of ['gpt-4o', 'gpt-4o-mini', 'chatgpt-4o-latest', 'gpt-4.1-nano', 'gpt-4.5-preview', 'gpt-4-turbo', 'gpt-3.5-turbo', 'gpt-5-chat-latest', 'openai/gpt-4o', 'ft:gpt-4o-mini-2024-07-18:acme::x']) {
      expect(isKnownNonReasoningOpenAiModel(model), model).toBe(true);
    }
    for (const model of ['o3', 'gpt-5', 'prod-deployment', 'my-model', 'gpt-40-turbo']) expect(isKnownNonReasoningOpenAiModel(model), model).toBe(false);
  });
});

describe("An Anthropic client's thinking sent through OpenRouter", () => {
  const OPENROUTER = { ...NO_EXTRA_FEATURES, reasoningObject: true };

  it('goes to every model, OpenRouter applying it where the model reasons: a budget exactly, as reasoning.max_tokens', () => {
    const { body, dropped } = translate({ thinking: { type: 'enabled', budget_tokens: 10000 } }, 'anthropic/claude-sonnet-4.5', openAiChatProtocol, OPENROUTER);
    expect(body.reasoning).toEqual({ max_tokens: 10000 });
    expect(body).not.toHaveProperty('reasoning_effort');
    expect(dropped).toEqual([]);
  });

  it('sends adaptive thinking at its effort as reasoning_effort, and without one as reasoning enabled', () => {
    expect(translate({ thinking: { type: 'adaptive' }, output_config: { effort: 'low' } }, 'deepseek/deepseek-r1', openAiChatProtocol, OPENROUTER).body).toMatchObject({ reasoning_effort: 'low' });
    expect(translate({ thinking: { type: 'adaptive' } }, 'deepseek/deepseek-r1', openAiChatProtocol, OPENROUTER).body.reasoning).toEqual({ enabled: true });
  });

  it('is left out where Anthropic refuses thinking: a forced tool, or a tool loop whose thinking never came back signed (Claude before 4.6)', () => {
    const thinking = { thinking: { type: 'enabled', budget_tokens: 10000 } };
    const tools = [{ name: 'Read', input_schema: { type: 'object' } }];
    const loop = {
      messages: [
        { role: 'user', content: 'Read a.txt' },
        { role: 'assistant', content: [{ type: 'thinking', thinking: 'I should read it.', signature: '' }, { type: 'tool_use', id: 'toolu_1', name: 'Read', input: { path: 'a.txt' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'hello' }] },
      ],
    };
    for (const body of [{ ...thinking, tools, ...loop }, { ...thinking, tools, tool_choice: { type: 'tool', name: 'Read' } }]) {
      const translated = translate(body, 'anthropic/claude-sonnet-4.5', openAiChatProtocol, OPENROUTER);
      expect(translated.body).not.toHaveProperty('reasoning');
      expect(translated.dropped).toContain('reasoning');
    }
    // A model that is no Claude reasons in its tool loops as it likes; a Claude that thinks adaptively too.
    expect(translate({ ...thinking, tools, ...loop }, 'deepseek/deepseek-r1', openAiChatProtocol, OPENROUTER).body.reasoning).toEqual({ max_tokens: 10000 });
    expect(translate({ ...thinking, tools, ...loop }, 'anthropic/claude-sonnet-4.6', openAiChatProtocol, OPENROUTER).body.reasoning).toEqual({ max_tokens: 10000 });
  });

  it('is still dropped and named for a model elsewhere that does not reason', () => {
    const { body, dropped } = translate({ thinking: { type: 'enabled', budget_tokens: 10000 } }, 'anthropic/claude-sonnet-4.5', openAiChatProtocol, NO_EXTRA_FEATURES);
    expect(body).not.toHaveProperty('reasoning');
    expect(body).not.toHaveProperty('reasoning_effort');
    expect(dropped).toContain('thinking');
  });
});
