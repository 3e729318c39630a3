import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatPromptText, countTokens } from '../../shared/tokenizer/estimate-tokens.ts';
import { sendJson, startFakeOpenAiUpstream, type FakeUpstream } from '../support/fake-openai-upstream.ts';
import { createProjectWithKey, startTestGateway, type TestGateway } from '../support/test-gateway.ts';

/**
 * A provider that bills every request at the most it plausibly can: the prompt as its tokenizer counts it
 * with OpenAI's framing (4 tokens a message, 3 to prime the reply) and the whole max_tokens of output for
 * each of the `n` choices (OpenAI bills them all).
 */
async function billAtMost(upstream: FakeUpstream): Promise<void> {
  upstream.answerWith(async (request, response) => {
    const messages = request.body.messages as unknown[];
    const prompt = (await countTokens(chatPromptText(messages))) + 4 * messages.length + 3;
    const choices = Number(request.body.n ?? 1);
    const perChoice = Number(request.body.max_tokens);
    const completion = choices * perChoice;
    sendJson(response, 200, {
      id: 'chatcmpl-most',
      object: 'chat.completion',
      created: 1,
      model: 'gpt-4o-mini',
      choices: Array.from({ length: choices }, (_, index) => ({ index, message: { role: 'assistant', content: 'x'.repeat(perChoice) }, finish_reason: 'length' })),
      usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
    });
  });
}

let gateway: TestGateway;
let upstream: FakeUpstream;

beforeAll(async () => {
  upstream = await startFakeOpenAiUpstream();
  await billAtMost(upstream);
  gateway = await startTestGateway();
});

afterAll(async () => {
  await gateway.close();
  await upstream.close();
});

describe('a prepaid balance', () => {
  it('never goes below zero: 50 parallel short requests, each billed at its most (framing tokens outweigh their text)', async () => {
    const key = await createProjectWithKey(gateway, { projectId: 'tight', baseUrl: upstream.baseUrl, models: [{ slug: 'openai/gpt-4o-mini', inputMicrosPer1k: 150, outputMicrosPer1k: 600 }] });
    // A four-characters-a-token estimate would take each request for 3 prompt tokens + 5 output: 3,450 nano-USD,
    // and admit all 50 on this balance; each is billed about 15 prompt tokens, so the balance would go negative.
    await gateway.admin({ command: 'project.update', projectId: 'tight', balanceUsd: '0.0001725' });
    const client = gateway.openai(key);

    await Promise.allSettled(
      Array.from({ length: 50 }, (_, index) =>
        client.chat.completions.create({ model: 'openai/gpt-4o-mini', max_tokens: 5, messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: `${index}` }] }),
      ),
    );
    await gateway.host.drainUsage();

    const project = await gateway.admin<{ balance_usd: string; spent_usd: string; request_count: number }>({ command: 'project.get', projectId: 'tight' });
    expect(project.request_count).toBeGreaterThan(0);
    expect(Number(project.balance_usd)).toBeGreaterThanOrEqual(0);
    expect(Math.round((Number(project.balance_usd) + Number(project.spent_usd)) * 1e9)).toBe(172_500);
  });

  it('never goes below zero for requests with n: each reserves max_tokens for every choice', async () => {
    const key = await createProjectWithKey(gateway, {
      projectId: 'many-choices',
      baseUrl: upstream.baseUrl,
      models: [{ slug: 'openai/gpt-4o-mini', inputMicrosPer1k: 150, outputMicrosPer1k: 600, requestMicros: 3 }],
    });
    await gateway.admin({ command: 'project.update', projectId: 'many-choices', balanceUsd: '0.001' });
    const client = gateway.openai(key);
    const calledBefore = upstream.received.length;
    const ask = (n: number) => client.chat.completions.create({ model: 'openai/gpt-4o-mini', n, max_tokens: 100, messages: [{ role: 'user', content: 'Name a colour.' }] });

    // 128 choices of 100 tokens at 600 nano-USD a token: 0.00768 USD, far beyond the balance, though one choice fits.
    await expect(ask(128)).rejects.toMatchObject({ status: 402, code: 'insufficient_balance' });
    expect(upstream.received.length).toBe(calledBefore);
    // Each of these is billed 400 output tokens (about 0.000245 USD): a reservation of one choice's cap (about
    // 0.000093 USD) would admit all ten, and the balance would end near -0.0014.
    const settled = await Promise.allSettled(Array.from({ length: 10 }, () => ask(4)));
    await gateway.host.drainUsage();

    const project = await gateway.admin<{ balance_usd: string; spent_usd: string; request_count: number }>({ command: 'project.get', projectId: 'many-choices' });
    expect(settled.filter((result) => result.status === 'fulfilled').length).toBe(project.request_count);
    expect(project.request_count).toBeGreaterThan(0);
    expect(Number(project.balance_usd)).toBeGreaterThanOrEqual(0);
    expect(Math.round((Number(project.balance_usd) + Number(project.spent_usd)) * 1e9)).toBe(1_000_000);
  });

  it("never goes below zero when a chat client's reasoning effort has Claude's max_tokens raised above its thinking budget", async () => {
    const claude = await startFakeOpenAiUpstream();
    // Billed as Claude can bill it: the whole max_tokens it was sent, thinking included.
    claude.answerWith((request, response) =>
      sendJson(response, 200, {
        id: 'msg_most', type: 'message', role: 'assistant', model: 'claude-haiku-4-5', content: [{ type: 'text', text: 'x' }],
        stop_reason: 'max_tokens', stop_sequence: null, usage: { input_tokens: 10, output_tokens: Number(request.body.max_tokens) },
      }),
    );
    try {
      const key = await createProjectWithKey(gateway, {
        projectId: 'thinking-prepaid',
        provider: 'anthropic',
        protocol: 'anthropic',
        baseUrl: claude.baseUrl,
        models: [{ slug: 'anthropic/claude-haiku-4-5', inputMicrosPer1k: 1000, outputMicrosPer1k: 5000 }],
      });
      // max_tokens 100 with a high effort is sent as 16,484 (a 16,384 budget above it): 0.08242 USD of output
      // each. A reservation of the client's 100 tokens (0.0005 USD) would admit all ten on 0.2 USD.
      await gateway.admin({ command: 'project.update', projectId: 'thinking-prepaid', balanceUsd: '0.2' });
      const client = gateway.openai(key);
      const settled = await Promise.allSettled(
        Array.from({ length: 10 }, () => client.chat.completions.create({ model: 'anthropic/claude-haiku-4-5', max_tokens: 100, reasoning_effort: 'high', messages: [{ role: 'user', content: 'Think.' }] })),
      );
      await gateway.host.drainUsage();

      expect(claude.received[0]?.body).toMatchObject({ max_tokens: 16_484, thinking: { type: 'enabled', budget_tokens: 16_384 } });
      const project = await gateway.admin<{ balance_usd: string; request_count: number }>({ command: 'project.get', projectId: 'thinking-prepaid' });
      expect(settled.filter((result) => result.status === 'fulfilled').length).toBe(project.request_count);
      expect(project.request_count).toBeGreaterThan(0);
      expect(Number(project.balance_usd)).toBeGreaterThanOrEqual(0);
    } finally {
      await claude.close();
    }
  });
});
