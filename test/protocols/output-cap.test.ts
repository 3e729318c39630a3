import { describe, expect, it } from 'vitest';
import { anthropicMessagesProtocol } from '../../shared/protocols/anthropic-messages/anthropic-messages-protocol.ts';
import { bedrockConverseProtocol } from '../../shared/protocols/bedrock-converse/bedrock-converse-protocol.ts';
import { openAiChatProtocol } from '../../shared/protocols/openai-chat/openai-chat-protocol.ts';
import { openAiResponsesProtocol } from '../../shared/protocols/openai-responses/openai-responses-protocol.ts';

const openAi = (outputTokenLimit?: number) => ({ customTools: true, maxCompletionTokens: true, reasoningObject: false, ...(outputTokenLimit ? { outputTokenLimit } : {}) });
/** Claude Code asks 32,000 tokens of every model (2.1.330). */
const claudeCodeTurn = () => anthropicMessagesProtocol.readRequest({ model: 'gpt-4o-mini', max_tokens: 32000, messages: [{ role: 'user', content: 'hi' }] });

describe("A translated request's answer cap", () => {
  it("is lowered to the model's largest answer, which a provider refuses to be asked beyond", () => {
    expect(openAiChatProtocol.writeRequest(claudeCodeTurn(), 'gpt-4o-mini', openAi(16_384)).max_completion_tokens).toBe(16_384);
    expect(openAiResponsesProtocol.writeRequest(claudeCodeTurn(), 'gpt-4o-mini', openAi(16_384)).max_output_tokens).toBe(16_384);
    expect(bedrockConverseProtocol.writeRequest(claudeCodeTurn(), 'amazon.nova-pro-v1:0', { customTools: false, maxCompletionTokens: false, reasoningObject: false, outputTokenLimit: 10_000 }).inferenceConfig).toEqual({ maxTokens: 10_000 });
  });

  it('stays as the client asked when within the limit, or when the limit is not known', () => {
    expect(openAiChatProtocol.writeRequest(claudeCodeTurn(), 'gpt-5', openAi(128_000)).max_completion_tokens).toBe(32_000);
    expect(openAiChatProtocol.writeRequest(claudeCodeTurn(), 'my-fine-tune', openAi()).max_completion_tokens).toBe(32_000);
  });

  it("is lowered for Claude too, and a chat client that sets none still gets Anthropic's required default", () => {
    const chat = (body: Record<string, unknown>) => openAiChatProtocol.readRequest({ model: 'claude-haiku-4-5', messages: [{ role: 'user', content: 'hi' }], ...body });
    expect(anthropicMessagesProtocol.writeRequest(chat({ max_tokens: 100_000 }), 'claude-haiku-4-5', openAi(64_000)).max_tokens).toBe(64_000);
    expect(anthropicMessagesProtocol.writeRequest(chat({}), 'claude-haiku-4-5', openAi(64_000)).max_tokens).toBe(4096);
  });

  it('is at least 16 for the Responses API, which refuses less, and left as asked elsewhere', () => {
    const probe = openAiChatProtocol.readRequest({ model: 'gpt-5', messages: [{ role: 'user', content: 'hi' }], max_tokens: 5 });
    expect(openAiResponsesProtocol.writeRequest(probe, 'gpt-5-pro', openAi(128_000)).max_output_tokens).toBe(16);
    expect(openAiChatProtocol.writeRequest(probe, 'gpt-4.1', openAi(32_768)).max_completion_tokens).toBe(5);
    const uncapped = openAiChatProtocol.readRequest({ model: 'gpt-5', messages: [{ role: 'user', content: 'hi' }] });
    expect(openAiResponsesProtocol.writeRequest(uncapped, 'gpt-5-pro', openAi(128_000))).not.toHaveProperty('max_output_tokens');
  });

  it('stays within the maximum when thinking raises it above the budget, the budget keeping half', () => {
    const chat = openAiChatProtocol.readRequest({ model: 'claude-opus-4-1', messages: [{ role: 'user', content: 'hi' }], max_tokens: 32_000, reasoning_effort: 'xhigh' });
    const body = anthropicMessagesProtocol.writeRequest(chat, 'claude-opus-4-1', openAi(32_000));
    expect(body).toMatchObject({ max_tokens: 32_000, thinking: { type: 'enabled', budget_tokens: 16_000 } });
  });
});

describe('The max_tokens of a translated request to Claude whose client set no cap', () => {
  const codexTurn = (stream: boolean) => openAiResponsesProtocol.readRequest({ model: 'claude-sonnet-4-5', input: 'Refactor the parser', stream });

  it("is 32,000 for a stream on a model known to take more, as Claude Code asks, and the model's maximum when lower", () => {
    expect(anthropicMessagesProtocol.writeRequest(codexTurn(true), 'claude-sonnet-4-5', openAi(64_000)).max_tokens).toBe(32_000);
    expect(anthropicMessagesProtocol.writeRequest(codexTurn(true), 'claude-3-5-haiku', openAi(8_192)).max_tokens).toBe(8_192);
  });

  it("stays 4,096 for an answer given whole, or when the model's maximum is not known", () => {
    expect(anthropicMessagesProtocol.writeRequest(codexTurn(false), 'claude-sonnet-4-5', openAi(64_000)).max_tokens).toBe(4096);
    expect(anthropicMessagesProtocol.writeRequest(codexTurn(true), 'claude-next', openAi()).max_tokens).toBe(4096);
  });
});
