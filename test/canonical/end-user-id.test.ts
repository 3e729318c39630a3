import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { anthropicMessagesProtocol } from '../../shared/protocols/anthropic-messages/anthropic-messages-protocol.ts';
import { openAiChatProtocol } from '../../shared/protocols/openai-chat/openai-chat-protocol.ts';
import { openAiResponsesProtocol } from '../../shared/protocols/openai-responses/openai-responses-protocol.ts';
import { OPENAI_FEATURES } from '../support/upstream-features.ts';

/** Claude Code 2.1.330's `metadata.user_id`, as it sent it (the ids replaced by ones of the same shape). */
const CLAUDE_CODE_USER_ID = JSON.stringify({ device_id: 'a'.repeat(64), account_uuid: '', session_id: '28a25211-831b-4fe3-b592-b699babb2b59' });

const fromClaudeCode = (userId: string) => anthropicMessagesProtocol.readRequest({ model: 'gpt-5', max_tokens: 64, messages: [{ role: 'user', content: 'hi' }], metadata: { user_id: userId } });
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('The end-user id of a translated request', () => {
  it("goes to OpenAI's protocols as its SHA-256 when longer than the 64 characters OpenAI takes, as Claude Code's is", () => {
    expect(CLAUDE_CODE_USER_ID.length).toBeGreaterThan(128);
    expect(openAiChatProtocol.writeRequest(fromClaudeCode(CLAUDE_CODE_USER_ID), 'gpt-5', OPENAI_FEATURES).user).toBe(sha256(CLAUDE_CODE_USER_ID));
    expect(openAiResponsesProtocol.writeRequest(fromClaudeCode(CLAUDE_CODE_USER_ID), 'gpt-5-codex', OPENAI_FEATURES).safety_identifier).toBe(sha256(CLAUDE_CODE_USER_ID));
  });

  it('goes as it is when short enough, so the provider sees the id the client chose', () => {
    const id = 'user-7f3a'.padEnd(64, 'x');
    expect(openAiChatProtocol.writeRequest(fromClaudeCode(id), 'gpt-5', OPENAI_FEATURES).user).toBe(id);
  });

  it("goes to Anthropic as its SHA-256 only beyond the 256 characters Anthropic takes", () => {
    const chat = (user: string) => openAiChatProtocol.readRequest({ model: 'claude-opus-4-5', messages: [{ role: 'user', content: 'hi' }], user });
    expect(anthropicMessagesProtocol.writeRequest(chat(CLAUDE_CODE_USER_ID), 'claude-opus-4-5', OPENAI_FEATURES).metadata).toEqual({ user_id: CLAUDE_CODE_USER_ID });
    const long = 'u'.repeat(257);
    expect(anthropicMessagesProtocol.writeRequest(chat(long), 'claude-opus-4-5', OPENAI_FEATURES).metadata).toEqual({ user_id: sha256(long) });
  });
});
