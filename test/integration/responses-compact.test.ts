import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generationOf } from '../support/generation-lookup.ts';
import { sendJson, startFakeOpenAiUpstream, type FakeUpstream } from '../support/fake-openai-upstream.ts';
import { startTestGateway, type TestGateway } from '../support/test-gateway.ts';

let gateway: TestGateway;
let openai: FakeUpstream;
let openrouter: FakeUpstream;
let anthropic: FakeUpstream;
let key: string;

beforeAll(async () => {
  openai = await startFakeOpenAiUpstream();
  openrouter = await startFakeOpenAiUpstream();
  anthropic = await startFakeOpenAiUpstream();
  gateway = await startTestGateway();
  const projectId = 'compacting';
  await gateway.admin({ command: 'project.create', projectId });
  await gateway.admin({ command: 'provider.set', projectId, provider: 'openai', apiKey: 'sk-openai-upstream-0123456789', baseUrl: openai.baseUrl });
  await gateway.admin({ command: 'provider.set', projectId, provider: 'openrouter', apiKey: 'sk-or-upstream-0123456789', baseUrl: openrouter.baseUrl });
  await gateway.admin({ command: 'provider.set', projectId, provider: 'anthropic', apiKey: 'sk-ant-upstream-0123456789', baseUrl: anthropic.baseUrl });
  await gateway.admin({ command: 'model.allow', projectId, slug: 'openai/gpt-5.5', inputMicrosPer1k: 1250, outputMicrosPer1k: 10_000 });
  await gateway.admin({ command: 'model.allow', projectId, slug: 'openrouter/openai/gpt-5.5', inputMicrosPer1k: 1250, outputMicrosPer1k: 10_000 });
  await gateway.admin({ command: 'model.allow', projectId, slug: 'anthropic/claude-haiku-4-5', inputMicrosPer1k: 1000, outputMicrosPer1k: 5000 });
  key = (await gateway.admin<{ key: string }>({ command: 'key.create', projectId })).key;
});

afterAll(async () => {
  await gateway?.close();
  await openai?.close();
  await openrouter?.close();
  await anthropic?.close();
});

/** A conversation as Codex sends it for remote compaction. */
const conversation: OpenAI.Responses.ResponseInputItem[] = [
  { role: 'user', content: 'Add a README.' },
  { type: 'function_call', call_id: 'call_1', name: 'exec_command', arguments: '{"cmd":"ls"}' },
  { type: 'function_call_output', call_id: 'call_1', output: 'src\npackage.json' },
];

/** OpenAI's compaction: opaque encrypted content, and the usage billed for making it. */
const compacted = {
  id: 'resp_compact_1',
  object: 'response.compaction',
  created_at: 1_780_000_000,
  output: [
    { id: 'msg_1', type: 'message', status: 'completed', role: 'user', content: [{ type: 'input_text', text: 'Add a README.' }] },
    { id: 'cmp_1', type: 'compaction', encrypted_content: 'gAAAAABo-opaque-compaction' },
  ],
  usage: { input_tokens: 1200, input_tokens_details: { cached_tokens: 0 }, output_tokens: 300, output_tokens_details: { reasoning_tokens: 100 }, total_tokens: 1500 },
};

describe('POST /v1/responses/compact', () => {
  it('passes the conversation to a provider that serves the Responses API, returns its compaction as sent, and meters its usage', async () => {
    openai.answerWith((_request, response) => sendJson(response, 200, compacted));
    openai.received.length = 0;
    const { data, response } = await gateway.openai(key).responses.compact({ model: 'openai/gpt-5.5', input: conversation, instructions: 'Be brief.' }).withResponse();

    expect(data).toEqual(compacted);
    expect(openai.received).toHaveLength(1);
    expect(openai.received[0]).toMatchObject({ method: 'POST', path: '/v1/responses/compact', body: { model: 'gpt-5.5', input: conversation, instructions: 'Be brief.' } });
    const record = await generationOf(gateway, key, response.headers.get('x-request-id') ?? '');
    expect(record).toMatchObject({ endpoint: 'responses.compact', model: 'openai/gpt-5.5', status: 'completed', tokens_prompt: 1200, tokens_completion: 300, estimated: false });
    // 1200 × 1.25 + 300 × 10 micro-USD per 1,000 tokens.
    expect(record.total_cost).toBeCloseTo(0.0045, 10);
  });

  it('fails over to the next target that serves the Responses API, skipping a model that would need translation', async () => {
    openai.answerWith((_request, response) => sendJson(response, 500, { error: { message: 'boom', type: 'server_error', param: null, code: null } }));
    openrouter.answerWith((_request, response) => sendJson(response, 200, compacted));
    anthropic.received.length = 0;
    openrouter.received.length = 0;
    const { data, response } = await gateway
      .openai(key)
      .responses.compact({ model: 'openai/gpt-5.5', models: ['anthropic/claude-haiku-4-5', 'openrouter/openai/gpt-5.5'], route: 'fallback', input: conversation } as OpenAI.Responses.ResponseCompactParams)
      .withResponse();

    expect(data.output.map((item) => item.type)).toEqual(['message', 'compaction']);
    expect(response.headers.get('x-gateway-model')).toBe('openrouter/openai/gpt-5.5');
    expect(anthropic.received).toHaveLength(0);
    expect(openrouter.received[0]).toMatchObject({ path: '/v1/responses/compact', body: { model: 'openai/gpt-5.5' } });
    expect(openrouter.received[0]?.body).not.toHaveProperty('models');
    expect(await generationOf(gateway, key, response.headers.get('x-request-id') ?? '')).toMatchObject({ endpoint: 'responses.compact', model: 'openrouter/openai/gpt-5.5', fallback_attempts: 1 });
  });

  it('refuses with a 400 saying why when no target serves the Responses API: compaction is OpenAI’s encrypted content, which no translation makes', async () => {
    anthropic.received.length = 0;
    const error = await gateway.openai(key).responses.compact({ model: 'anthropic/claude-haiku-4-5', input: conversation }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error).toMatchObject({ status: 400, code: 'model_unsupported_for_endpoint', param: 'model', message: expect.stringMatching(/served over anthropic-messages.*Responses API.*encrypted/s) });
    expect(anthropic.received).toHaveLength(0);
  });

  it('refuses stream: true with a 400 naming the field: a compaction is answered whole', async () => {
    openai.received.length = 0;
    const error = await gateway.openai(key).responses.compact({ model: 'openai/gpt-5.5', input: conversation, stream: true } as OpenAI.Responses.ResponseCompactParams).catch((thrown: unknown) => thrown);
    expect(error).toMatchObject({ status: 400, code: 'stream_not_supported', param: 'stream' });
    expect(openai.received).toHaveLength(0);
  });
});
