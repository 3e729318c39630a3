import type { ServerResponse } from 'node:http';
import { zodResponseFormat, zodTextFormat } from 'openai/helpers/zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { refusalOfAnthropic } from '../support/anthropic-refusals.ts';
import { recordedAnthropicAnswer } from '../support/fake-anthropic-upstream.ts';
import { refusingAsProvider, sendJson, startFakeOpenAiUpstream, type FakeUpstream } from '../support/fake-openai-upstream.ts';
import { readFixture } from '../support/fixtures.ts';
import { CHAT_BODIES, RESPONSES_BODIES } from '../support/client-request-shapes.ts';
import { startTestGateway, type TestGateway } from '../support/test-gateway.ts';

/**
 * Requests OpenAI's clients really send (chat completions and Responses, as SDKs, chat apps and Codex build
 * them), translated for Claude models of every generation, against an upstream that refuses what Anthropic
 * refuses (test/support/anthropic-refusals.ts): each must be taken.
 */
let gateway: TestGateway;
let anthropic: FakeUpstream;
let key: string;

const MODELS = ['claude-3-7-sonnet-20250219', 'claude-sonnet-4-20250514', 'claude-sonnet-4-5', 'claude-opus-4-6', 'claude-opus-4-7'];

beforeAll(async () => {
  anthropic = await startFakeOpenAiUpstream();
  anthropic.answerWith(refusingAsProvider(refusalOfAnthropic, recordedAnthropicAnswer()));
  gateway = await startTestGateway();
  await gateway.admin({ command: 'project.create', projectId: 'strict-claude' });
  await gateway.admin({ command: 'provider.set', projectId: 'strict-claude', provider: 'anthropic', apiKey: 'sk-ant-upstream-0123456789', baseUrl: anthropic.baseUrl });
  for (const model of MODELS) await gateway.admin({ command: 'model.allow', projectId: 'strict-claude', slug: `anthropic/${model}`, inputMicrosPer1k: 1000, outputMicrosPer1k: 5000 });
  key = (await gateway.admin<{ key: string }>({ command: 'key.create', projectId: 'strict-claude' })).key;
}, 120_000);

afterAll(async () => {
  await gateway?.close();
  await anthropic?.close();
});

describe('chat completions translated for Claude, against an upstream that refuses what Anthropic refuses', () => {
  for (const model of MODELS) {
    it.each(CHAT_BODIES)(`takes %s on ${model}`, async (_what, body) => {
      const response = await fetch(`${gateway.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: `anthropic/${model}`, ...body }),
      });
      expect(response.status, await response.clone().text()).toBe(200);
      if (body.stream === true) expect(await response.text()).toMatch(/data: \[DONE\]\n\n$/);
      else expect(((await response.json()) as { object: string }).object).toBe('chat.completion');
    });
  }
});

describe('Responses translated for Claude, against an upstream that refuses what Anthropic refuses', () => {
  for (const model of MODELS) {
    it.each(RESPONSES_BODIES)(`takes %s on ${model}`, async (_what, body) => {
      const response = await fetch(`${gateway.url}/v1/responses`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: `anthropic/${model}`, ...body }),
      });
      expect(response.status, await response.clone().text()).toBe(200);
      if (body.stream === true) expect(await response.text()).toContain('event: response.completed');
      else expect(((await response.json()) as { object: string }).object).toBe('response');
    });
  }
});

describe("OpenAI's structured-output helpers on Claude", () => {
  const City = z.object({ name: z.string(), population: z.number().int().min(0) });
  /** Claude's answer under structured outputs: the JSON, as text. */
  const answerAsJson = (request: { body: Record<string, unknown> }, response: ServerResponse) => {
    const recorded = JSON.parse(readFixture('anthropic/messages-nonstream-text.json')) as { content: Array<{ text: string }> };
    recorded.content = [{ type: 'text', text: '{"name":"Paris","population":2100000}' } as { text: string }];
    sendJson(response, 200, { ...recorded, model: request.body.model });
  };

  it("parses a chat completion and a response from Claude with a zod schema: the schema reaches Claude as structured outputs", async () => {
    anthropic.received.length = 0;
    const answer = recordedAnthropicAnswer();
    anthropic.answerWith(
      refusingAsProvider(refusalOfAnthropic, (request, response) =>
        (request.body.output_config as { format?: unknown } | undefined)?.format ? answerAsJson(request, response) : answer(request, response),
      ),
    );
    const completion = await gateway.openai(key).chat.completions.parse({
      model: 'anthropic/claude-sonnet-4-5',
      messages: [{ role: 'user', content: 'Name a city' }],
      response_format: zodResponseFormat(City, 'city'),
    });

    expect(completion.choices[0]?.message.parsed).toEqual({ name: 'Paris', population: 2_100_000 });
    expect(anthropic.received.at(-1)?.body.output_config).toMatchObject({ format: { type: 'json_schema', schema: { type: 'object', additionalProperties: false, required: ['name', 'population'] } } });

    // The Responses API's helper alike: text.format reaches Claude as the same structured outputs.
    const response = await gateway.openai(key).responses.parse({ model: 'anthropic/claude-opus-4-7', input: 'Name a city', text: { format: zodTextFormat(City, 'city') } });
    expect(response.output_parsed).toEqual({ name: 'Paris', population: 2_100_000 });
    expect(anthropic.received.at(-1)?.body.output_config).toMatchObject({ format: { type: 'json_schema' } });
  });
});
