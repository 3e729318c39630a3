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

  it("is sent a larger default for a model of OpenAI's reasoning kind, whose cap counts its reasoning too", async () => {
    const key = await createProjectWithKey(gateway, { projectId: 'unknown-reasoner', provider: 'local', protocol: 'openai', baseUrl: upstream.baseUrl, models: [{ slug: 'local/o1', inputMicrosPer1k: 150, outputMicrosPer1k: 600 }] });
    await gateway.admin({ command: 'project.update', projectId: 'unknown-reasoner', balanceUsd: '1' });
    await gateway.openai(key).chat.completions.create({ model: 'local/o1', messages: [{ role: 'user', content: 'Reason at length.' }] });

    expect(upstream.received.at(-1)?.body).toMatchObject({ max_tokens: 32_768 });
  });

  it('is held to it through a translation too (a Responses request sent as chat completions)', async () => {
    const key = await projectWithBalance('unknown-cap-responses', '0.003');
    const { response } = await gateway.openai(key).responses.create({ model: 'local/house-model-7', input: 'Write at length.', tools: [{ type: 'web_search' }] }).withResponse();

    expect(upstream.received.at(-1)?.body).toMatchObject({ max_tokens: 4096 });
    // The web search tool a translation drops gets no limit it would name as dropped too.
    expect(upstream.received.at(-1)?.body).not.toHaveProperty('max_tool_calls');
    expect(response.headers.get('x-gateway-dropped-fields') ?? '').not.toContain('max_tool_calls');
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

describe('a prepaid request with a web search tool that sets no limit', () => {
  const WEB_SEARCH = { type: 'web_search_20250305', name: 'web_search' };

  async function anthropicProject(projectId: string, balanceUsd?: string): Promise<string> {
    const key = await createProjectWithKey(gateway, { projectId, provider: 'anthropic', protocol: 'anthropic', baseUrl: upstream.baseUrl, models: [{ slug: 'anthropic/claude-haiku-4-5', inputMicrosPer1k: 1000, outputMicrosPer1k: 5000, webSearchMicros: 10_000 }] });
    if (balanceUsd) await gateway.admin({ command: 'project.update', projectId, balanceUsd });
    return key;
  }

  async function askMessages(key: string, tools: unknown[]): Promise<void> {
    upstream.answerWith((_request, response) =>
      sendJson(response, 200, {
        id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-haiku-4-5', content: [{ type: 'text', text: 'Found it.' }],
        stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: 10, output_tokens: 5, server_tool_use: { web_search_requests: 1 } },
      }),
    );
    try {
      const answered = await fetch(`${gateway.url}/v1/messages`, {
        method: 'POST',
        headers: { 'x-api-key': key, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'anthropic/claude-haiku-4-5', max_tokens: 100, tools, messages: [{ role: 'user', content: 'What happened today?' }] }),
      });
      expect(answered.status).toBe(200);
    } finally {
      answerUpToCap(upstream);
    }
  }

  it("is sent Anthropic's max_uses at the 10 searches its reservation counted; a limit of the client's is kept", async () => {
    const key = await anthropicProject('searches-prepaid', '1');
    await askMessages(key, [WEB_SEARCH, { name: 'lookup', input_schema: { type: 'object' } }]);
    expect(upstream.received.at(-1)?.body.tools).toEqual([{ ...WEB_SEARCH, max_uses: 10 }, { name: 'lookup', input_schema: { type: 'object' } }]);

    await askMessages(key, [{ ...WEB_SEARCH, max_uses: 3 }]);
    expect(upstream.received.at(-1)?.body.tools).toEqual([{ ...WEB_SEARCH, max_uses: 3 }]);
  });

  it('goes as sent for a postpaid project', async () => {
    const key = await anthropicProject('searches-postpaid');
    await askMessages(key, [WEB_SEARCH]);
    expect(upstream.received.at(-1)?.body.tools).toEqual([WEB_SEARCH]);
  });

  it("is sent OpenAI's max_tool_calls at the searches its reservation counted on the Responses API", async () => {
    const key = await createProjectWithKey(gateway, { projectId: 'responses-searches', provider: 'openai', baseUrl: upstream.baseUrl, models: [{ slug: 'openai/gpt-4o-mini', inputMicrosPer1k: 150, outputMicrosPer1k: 600, webSearchMicros: 10_000 }] });
    await gateway.admin({ command: 'project.update', projectId: 'responses-searches', balanceUsd: '1' });
    upstream.answerWith((_request, response) =>
      sendJson(response, 200, {
        id: 'resp_1', object: 'response', created_at: 1, status: 'completed', model: 'gpt-4o-mini',
        output: [{ type: 'message', id: 'msg_1', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: 'Found it.', annotations: [] }] }],
        usage: { input_tokens: 10, output_tokens: 5, total_tokens: 15 },
      }),
    );
    try {
      await gateway.openai(key).responses.create({ model: 'openai/gpt-4o-mini', input: 'What happened today?', tools: [{ type: 'web_search' }] });
      expect(upstream.received.at(-1)).toMatchObject({ path: '/v1/responses', body: { max_tool_calls: 10 } });
      await gateway.openai(key).responses.create({ model: 'openai/gpt-4o-mini', input: 'What happened today?', tools: [{ type: 'web_search' }], max_tool_calls: 2 });
      expect(upstream.received.at(-1)?.body).toMatchObject({ max_tool_calls: 2 });
      // A null limit is none, to the reservation and to OpenAI alike.
      await gateway.openai(key).responses.create({ model: 'openai/gpt-4o-mini', input: 'What happened today?', tools: [{ type: 'web_search' }], max_tool_calls: null });
      expect(upstream.received.at(-1)?.body).toMatchObject({ max_tool_calls: 10 });
    } finally {
      answerUpToCap(upstream);
    }
  });
});
