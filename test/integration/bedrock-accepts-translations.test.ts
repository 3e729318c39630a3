import { describe, expect, it } from 'vitest';
import { CHAT_BODIES, MESSAGES_BODIES, RESPONSES_BODIES } from '../support/client-request-shapes.ts';
import { bedrock, CLAUDE, gateway, key, NOVA, recordedAnswers, useBedrockGateway } from './bedrock-fixtures.ts';

/**
 * The request shapes OpenAI's clients send (test/support/client-request-shapes.ts), translated for Claude
 * on Bedrock (InvokeModel, whose Messages body the fake runtime checks as Anthropic's API does) and for
 * another vendor's model through Converse (whose rules the fake runtime keeps): each must be taken.
 */
useBedrockGateway();

const TARGETS = [`bedrock/${CLAUDE}`, `bedrock/${NOVA}`];

async function post(path: string, body: Record<string, unknown>) {
  bedrock.answerWith(recordedAnswers);
  return fetch(`${gateway.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

describe('chat completions translated for Bedrock, against a runtime that refuses what Bedrock refuses', () => {
  for (const model of TARGETS) {
    it.each(CHAT_BODIES)(`takes %s on ${model}`, async (_what, body) => {
      const response = await post('/v1/chat/completions', { model, ...body });
      expect(response.status, await response.clone().text()).toBe(200);
      if (body.stream === true) expect(await response.text()).toMatch(/data: \[DONE\]\n\n$/);
      else expect(((await response.json()) as { object: string }).object).toBe('chat.completion');
    });
  }
});

describe('Responses translated for Bedrock, against a runtime that refuses what Bedrock refuses', () => {
  for (const model of TARGETS) {
    it.each(RESPONSES_BODIES)(`takes %s on ${model}`, async (_what, body) => {
      const response = await post('/v1/responses', { model, ...body });
      expect(response.status, await response.clone().text()).toBe(200);
      if (body.stream === true) expect(await response.text()).toContain('event: response.completed');
      else expect(((await response.json()) as { object: string }).object).toBe('response');
    });
  }
});

describe("Messages translated for another vendor's model through Converse, against a runtime that refuses what Bedrock refuses", () => {
  it.each(MESSAGES_BODIES)(`takes %s on bedrock/${NOVA}`, async (_what, body) => {
    const response = await post('/v1/messages', { model: `bedrock/${NOVA}`, max_tokens: 1024, ...body });
    expect(response.status, await response.clone().text()).toBe(200);
    if (body.stream === true) expect(await response.text()).toContain('event: message_stop');
    else expect(((await response.json()) as { type: string }).type).toBe('message');
  });
});
