import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendJson, startFakeOpenAiUpstream, type FakeUpstream } from '../support/fake-openai-upstream.ts';
import { createProjectWithKey, startTestGateway, type TestGateway } from '../support/test-gateway.ts';

/** Output tokens the fake model writes when nothing caps it: far beyond what a reservation of 4,096 covers. */
const UNCAPPED_ANSWER_TOKENS = 20_000;

/** A chat-completions provider that writes up to the cap it is sent, and 20,000 tokens without one. */
function answerUpToCap(upstream: FakeUpstream): void {
  upstream.answerWith((request, response) => {
    const cap = Number(request.body.max_tokens ?? request.body.max_completion_tokens ?? UNCAPPED_ANSWER_TOKENS);
    sendJson(response, 200, {
      id: 'chatcmpl-long',
      object: 'chat.completion',
      created: 1,
      model: String(request.body.model),
      choices: [{ index: 0, message: { role: 'assistant', content: 'x' }, finish_reason: cap < UNCAPPED_ANSWER_TOKENS ? 'length' : 'stop' }],
      usage: { prompt_tokens: 10, completion_tokens: cap, total_tokens: 10 + cap },
    });
  });
}

let gateway: TestGateway;
let upstream: FakeUpstream;

beforeAll(async () => {
  upstream = await startFakeOpenAiUpstream();
  answerUpToCap(upstream);
  gateway = await startTestGateway();
});

afterAll(async () => {
  await gateway.close();
  await upstream.close();
});

// A model the known-limits table does not hold and the admin gave no --max-output-tokens: its largest answer is unknown.
const UNKNOWN_MODEL = { slug: 'local/house-model-7', inputMicrosPer1k: 150, outputMicrosPer1k: 600 };

async function projectWithBalance(projectId: string, balanceUsd?: string): Promise<string> {
  const key = await createProjectWithKey(gateway, { projectId, provider: 'local', protocol: 'openai', baseUrl: upstream.baseUrl, models: [UNKNOWN_MODEL] });
  if (balanceUsd) await gateway.admin({ command: 'project.update', projectId, balanceUsd });
  return key;
}

describe('a prepaid request without an output cap, to a model whose largest answer is unknown', () => {
  it('is sent the 4,096 tokens its reservation counted, so the balance stays at or above zero', async () => {
    // 4,096 tokens at 600 nano-USD each (0.0024576 USD) fit; the 20,000 the model writes uncapped (0.012 USD) do not.
    const key = await projectWithBalance('unknown-cap', '0.003');
    const answer = await gateway.openai(key).chat.completions.create({ model: 'local/house-model-7', messages: [{ role: 'user', content: 'Write at length.' }] });
    await gateway.host.drainUsage();

    expect(upstream.received.at(-1)?.body).toMatchObject({ max_tokens: 4096 });
    expect(answer.choices[0]?.finish_reason).toBe('length');
    const project = await gateway.admin<{ balance_usd: string; spent_usd: string }>({ command: 'project.get', projectId: 'unknown-cap' });
    expect(Number(project.balance_usd)).toBeGreaterThanOrEqual(0);
    expect(Math.round((Number(project.balance_usd) + Number(project.spent_usd)) * 1e9)).toBe(3_000_000);
  });

  it('is held to it through a translation too (a Responses request sent as chat completions)', async () => {
    const key = await projectWithBalance('unknown-cap-responses', '0.003');
    await gateway.openai(key).responses.create({ model: 'local/house-model-7', input: 'Write at length.' });

    expect(upstream.received.at(-1)?.body).toMatchObject({ max_tokens: 4096 });
  });

  it('is held to it on legacy completions, whose body goes as sent otherwise', async () => {
    const key = await projectWithBalance('unknown-cap-completions', '0.003');
    upstream.answerWith((request, response) =>
      sendJson(response, 200, {
        id: 'cmpl-1', object: 'text_completion', created: 1, model: String(request.body.model),
        choices: [{ index: 0, text: 'x', finish_reason: 'length', logprobs: null }],
        usage: { prompt_tokens: 5, completion_tokens: Number(request.body.max_tokens ?? UNCAPPED_ANSWER_TOKENS), total_tokens: 0 },
      }),
    );
    try {
      await gateway.openai(key).completions.create({ model: 'local/house-model-7', prompt: 'Once upon a time' });
      expect(upstream.received.at(-1)).toMatchObject({ path: '/v1/completions', body: { max_tokens: 4096, prompt: 'Once upon a time' } });
    } finally {
      answerUpToCap(upstream);
    }
  });

  it('keeps the cap the client set, and a postpaid project is sent none', async () => {
    const prepaid = await projectWithBalance('own-cap', '0.003');
    await gateway.openai(prepaid).chat.completions.create({ model: 'local/house-model-7', max_completion_tokens: 50, messages: [{ role: 'user', content: 'Be brief.' }] });
    expect(upstream.received.at(-1)?.body).toMatchObject({ max_completion_tokens: 50 });
    expect(upstream.received.at(-1)?.body).not.toHaveProperty('max_tokens');

    const postpaid = await projectWithBalance('postpaid-uncapped');
    await gateway.openai(postpaid).chat.completions.create({ model: 'local/house-model-7', messages: [{ role: 'user', content: 'Write at length.' }] });
    expect(upstream.received.at(-1)?.body).not.toHaveProperty('max_tokens');
    expect(upstream.received.at(-1)?.body).not.toHaveProperty('max_completion_tokens');
  });

  it('is not capped when the admin gave the model its largest answer (the reservation counts that)', async () => {
    const key = await createProjectWithKey(gateway, {
      projectId: 'known-limit',
      provider: 'local',
      protocol: 'openai',
      baseUrl: upstream.baseUrl,
      models: [{ ...UNKNOWN_MODEL, maxOutputTokens: 30_000 }],
    });
    await gateway.admin({ command: 'project.update', projectId: 'known-limit', balanceUsd: '1' });
    await gateway.openai(key).chat.completions.create({ model: 'local/house-model-7', messages: [{ role: 'user', content: 'Write at length.' }] });

    expect(upstream.received.at(-1)?.body).not.toHaveProperty('max_tokens');
  });
});
