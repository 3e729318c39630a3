import Anthropic from '@anthropic-ai/sdk';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anthropicStreamFrames, converseStreamFrames, errorFrame, exceptionFrame } from '../support/bedrock-event-stream.ts';
import { sendBedrockError, sendBedrockJson, sendEventStream, startFakeBedrockRuntime, type BedrockScript, type FakeBedrockRuntime } from '../support/fake-bedrock-runtime.ts';
import { readFixture } from '../support/fixtures.ts';
import { startTestGateway, type TestGateway } from '../support/test-gateway.ts';

/**
 * Bedrock end to end, offline: the gateway signs its calls with the AWS SDK's default credential chain
 * (here, the environment's credentials, as in Lambda) or a profile, and a fake runtime checks every
 * signature (service bedrock, region us-east-1) and answers in event-stream frames built with the codec.
 */
const ROLE = { accessKeyId: 'AKIDGATEWAYROLE00001', secretAccessKey: 'role-secret-access-key-0123456789', sessionToken: 'role-session-token-0123456789' };
const PROFILE = { accessKeyId: 'AKIDGATEWAYPROFILE01', secretAccessKey: 'profile-secret-access-key-0123456789' };
const CLAUDE = 'us.anthropic.claude-haiku-4-5-20251001-v1:0';
const NOVA = 'amazon.nova-pro-v1:0';
/** Bedrock's invocation metrics on the recorded stream (the events themselves report 10 in and 4 out). */
const METRICS = { inputTokenCount: 11, outputTokenCount: 5 };

const savedEnvironment = { ...process.env };
let credentialFiles: string;
let bedrock: FakeBedrockRuntime;
let gateway: TestGateway;
let key: string;

/** Answers each operation with its recording: Anthropic's events and message for InvokeModel, vercel/ai's Converse recordings. */
const recordedAnswers: BedrockScript = async (request, response) => {
  switch (request.operation) {
    case 'invoke':
      return sendBedrockJson(response, readFixture('anthropic/messages-nonstream-text.json'));
    case 'invoke-with-response-stream':
      return sendEventStream(response, anthropicStreamFrames(readFixture('anthropic/messages-stream-text.sse'), METRICS));
    case 'converse':
      return sendBedrockJson(response, readFixture('bedrock/converse-text.json'));
    case 'converse-stream':
      return sendEventStream(response, converseStreamFrames(readFixture('bedrock/converse-stream-text.chunks.txt')));
  }
};

beforeAll(async () => {
  credentialFiles = await mkdtemp(join(tmpdir(), 'gateway-aws-'));
  await writeFile(join(credentialFiles, 'credentials'), `[gateway-dev]\naws_access_key_id = ${PROFILE.accessKeyId}\naws_secret_access_key = ${PROFILE.secretAccessKey}\n`);
  await writeFile(join(credentialFiles, 'config'), '[profile gateway-dev]\nregion = us-east-1\n');
  Object.assign(process.env, {
    AWS_ACCESS_KEY_ID: ROLE.accessKeyId,
    AWS_SECRET_ACCESS_KEY: ROLE.secretAccessKey,
    AWS_SESSION_TOKEN: ROLE.sessionToken,
    AWS_SHARED_CREDENTIALS_FILE: join(credentialFiles, 'credentials'),
    AWS_CONFIG_FILE: join(credentialFiles, 'config'),
    AWS_EC2_METADATA_DISABLED: 'true',
  });
  delete process.env.AWS_PROFILE;

  bedrock = await startFakeBedrockRuntime({
    region: 'us-east-1',
    credentials: { [ROLE.accessKeyId]: ROLE, [PROFILE.accessKeyId]: { secretAccessKey: PROFILE.secretAccessKey } },
    apiKeys: ['bedrock-api-key-0123456789'],
  });
  gateway = await startTestGateway();
  await gateway.admin({ command: 'project.create', projectId: 'aws' });
  await gateway.admin({ command: 'provider.set', projectId: 'aws', provider: 'bedrock', region: 'us-east-1', baseUrl: bedrock.baseUrl });
  const claudeRates = { inputMicrosPer1k: 1000, outputMicrosPer1k: 5000, cachedInputMicrosPer1k: 100, cacheWriteInputMicrosPer1k: 1250 };
  await gateway.admin({ command: 'model.allow', projectId: 'aws', slug: `bedrock/${CLAUDE}`, alias: 'claude-haiku-4-5', ...claudeRates });
  await gateway.admin({ command: 'model.allow', projectId: 'aws', slug: `bedrock/${NOVA}`, alias: 'nova', inputMicrosPer1k: 800, outputMicrosPer1k: 3200 });
  key = (await gateway.admin<{ key: string }>({ command: 'key.create', projectId: 'aws' })).key;
});

afterAll(async () => {
  await gateway?.close();
  await bedrock?.close();
  await rm(credentialFiles, { recursive: true, force: true });
  for (const name of Object.keys(process.env)) if (!(name in savedEnvironment)) delete process.env[name];
  Object.assign(process.env, savedEnvironment);
});

const anthropic = (headers: Record<string, string> = {}) => new Anthropic({ authToken: key, apiKey: null, baseURL: gateway.url, maxRetries: 0, defaultHeaders: headers });

async function generation(id: string): Promise<Record<string, unknown>> {
  const lookup = () => fetch(`${gateway.url}/v1/generation?id=${id}`, { headers: { authorization: `Bearer ${key}` } });
  await expect.poll(async () => (await lookup()).status, { timeout: 2_000, interval: 50 }).toBe(200);
  return (await (await lookup()).json()) as Record<string, unknown>;
}

function lastRequest() {
  const request = bedrock.received.at(-1);
  if (!request) throw new Error('Bedrock received nothing');
  return request;
}

describe('Claude on Bedrock for a Messages client (native)', () => {
  it("streams Anthropic's events back, signed with the role's credentials, metered from Bedrock's invocation metrics", async () => {
    bedrock.answerWith(recordedAnswers);
    const stream = anthropic({ 'x-request-id': 'bedrock-native-stream', 'anthropic-beta': 'claude-code-20250219,oauth-2025-04-20,interleaved-thinking-2025-05-14' }).messages.stream({
      model: 'claude-haiku-4-5',
      max_tokens: 64,
      messages: [{ role: 'user', content: 'Say hello' }],
    });
    const message = await stream.finalMessage();

    expect(message.content).toEqual([{ type: 'text', text: 'Hello' }]);
    const seen = lastRequest();
    expect(seen).toMatchObject({ model: CLAUDE, operation: 'invoke-with-response-stream', authorization: { kind: 'sigv4', accessKeyId: ROLE.accessKeyId, region: 'us-east-1', service: 'bedrock', sessionToken: ROLE.sessionToken } });
    expect(seen.body).toEqual({
      max_tokens: 64,
      messages: [{ role: 'user', content: 'Say hello' }],
      anthropic_version: 'bedrock-2023-05-31',
      anthropic_beta: ['claude-code-20250219', 'interleaved-thinking-2025-05-14'],
    });

    const record = await generation('bedrock-native-stream');
    // Bedrock's metrics (11 in, 5 out), not the events' own counts (10 in, 4 out): 11 × 1000 + 5 × 5000 nano-USD.
    expect(record).toMatchObject({ model: `bedrock/${CLAUDE}`, provider: 'bedrock', tokens_prompt: 11, tokens_completion: 5, total_cost: (11 * 1000 + 5 * 5000) / 1e9, status: 'completed', finish_reason: 'end_turn' });
  });

  it("returns the message InvokeModel answered as it came, with Anthropic's usage metered", async () => {
    bedrock.answerWith(recordedAnswers);
    const message = await anthropic({ 'x-request-id': 'bedrock-native-json' }).messages.create({ model: `bedrock/${CLAUDE}`, max_tokens: 64, messages: [{ role: 'user', content: 'Hello' }] });

    expect(message).toEqual(JSON.parse(readFixture('anthropic/messages-nonstream-text.json')));
    expect(lastRequest()).toMatchObject({ operation: 'invoke', body: { anthropic_version: 'bedrock-2023-05-31' } });
    expect(await generation('bedrock-native-json')).toMatchObject({ tokens_prompt: 12, tokens_completion: 29 });
  });

  it("passes Bedrock's refusal of the request to the client in Anthropic's words and status", async () => {
    bedrock.answerWith((_request, response) => sendBedrockError(response, 400, 'ValidationException', 'max_tokens: must be at most 8192'));

    await expect(anthropic().messages.create({ model: 'claude-haiku-4-5', max_tokens: 9_000, messages: [{ role: 'user', content: 'Hi' }] })).rejects.toMatchObject({
      status: 400,
      error: { type: 'error', error: { type: 'invalid_request_error', message: 'max_tokens: must be at most 8192' } },
    });
  });

  it("ends the stream with Anthropic's error event when Bedrock sends an exception mid-stream, metered as failed", async () => {
    bedrock.answerWith((_request, response) => {
      const frames = anthropicStreamFrames(readFixture('anthropic/messages-stream-text.sse'), METRICS).slice(0, 3);
      return sendEventStream(response, [...frames, exceptionFrame('modelStreamErrorException', 'The model stream failed.')]);
    });
    const stream = anthropic({ 'x-request-id': 'bedrock-stream-exception' }).messages.stream({ model: 'claude-haiku-4-5', max_tokens: 64, messages: [{ role: 'user', content: 'Hi' }] });

    await expect(stream.finalMessage()).rejects.toMatchObject({ error: { type: 'error', error: { type: 'api_error', message: 'The model stream failed.' } } });
    expect(await generation('bedrock-stream-exception')).toMatchObject({ status: 'failed', tokens_prompt: 10 });
  });
});

describe('other models on Bedrock through Converse, and Claude for other clients', () => {
  it('streams a chat completion from ConverseStream, with the recorded usage', async () => {
    bedrock.answerWith(recordedAnswers);
    const stream = await gateway.openai(key, { defaultHeaders: { 'x-request-id': 'bedrock-converse-stream' } }).chat.completions.create({
      model: 'nova',
      stream: true,
      stream_options: { include_usage: true },
      max_tokens: 100,
      messages: [{ role: 'system', content: 'Count letters.' }, { role: 'user', content: 'How many r in strawberry?' }],
    });
    let text = '';
    let usage: unknown;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      if (chunk.usage) usage = chunk.usage;
    }

    expect(text).toBe('Let me count the "r"s in "strawberry":\n\ns-t-**r**-a-w-b-e-**r**-**r**-y\n\nThere are **3** r\'s in "strawberry."');
    expect(usage).toMatchObject({ prompt_tokens: 22, completion_tokens: 55 });
    expect(lastRequest()).toMatchObject({
      model: NOVA,
      operation: 'converse-stream',
      body: { system: [{ text: 'Count letters.' }], messages: [{ role: 'user', content: [{ text: 'How many r in strawberry?' }] }], inferenceConfig: { maxTokens: 100 } },
    });
    expect(await generation('bedrock-converse-stream')).toMatchObject({ model: `bedrock/${NOVA}`, tokens_prompt: 22, tokens_completion: 55, total_cost: (22 * 800 + 55 * 3200) / 1e9 });
  });

  it("answers a chat completion and a Responses request from Converse, and a Messages client from Converse too", async () => {
    bedrock.answerWith(recordedAnswers);
    const client = gateway.openai(key);
    const completion = await client.chat.completions.create({ model: `bedrock/${NOVA}`, messages: [{ role: 'user', content: 'strawberry?' }] });
    expect(completion).toMatchObject({ model: NOVA, choices: [{ message: { content: expect.stringContaining('There are **3**') }, finish_reason: 'stop' }], usage: { prompt_tokens: 22, completion_tokens: 57 } });

    const response = await client.responses.create({ model: 'nova', input: 'strawberry?' });
    expect(response.output_text).toContain('There are **3**');

    const message = await anthropic().messages.create({ model: 'nova', max_tokens: 100, messages: [{ role: 'user', content: 'strawberry?' }] });
    expect(message).toMatchObject({ content: [{ type: 'text', text: expect.stringContaining('There are **3**') }], usage: { input_tokens: 22, output_tokens: 57 } });
    expect(bedrock.received.slice(-3).map((request) => request.operation)).toEqual(['converse', 'converse', 'converse']);
  });

  it('translates a chat completion for Claude into the Messages body InvokeModel takes, streaming it back as chat chunks', async () => {
    bedrock.answerWith(recordedAnswers);
    const stream = await gateway.openai(key).chat.completions.create({ model: 'claude-haiku-4-5', stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'Say hello' }] });
    let text = '';
    let usage: unknown;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      if (chunk.usage) usage = chunk.usage;
    }

    expect(text).toBe('Hello');
    expect(usage).toMatchObject({ prompt_tokens: 11, completion_tokens: 5 });
    expect(lastRequest()).toMatchObject({ operation: 'invoke-with-response-stream', body: { anthropic_version: 'bedrock-2023-05-31', max_tokens: 4096, messages: [{ role: 'user', content: [{ type: 'text', text: 'Say hello' }] }] } });
    expect(lastRequest().body).not.toHaveProperty('model');
  });

  it('ends a chat stream with an error, metered as failed, when ConverseStream sends an unmodelled error message', async () => {
    bedrock.answerWith((_request, response) => {
      const frames = converseStreamFrames(readFixture('bedrock/converse-stream-text.chunks.txt')).slice(0, 3);
      return sendEventStream(response, [...frames, errorFrame('InternalFailure', 'The request processing has failed because of an unknown error.')]);
    });
    const stream = await gateway.openai(key, { defaultHeaders: { 'x-request-id': 'bedrock-converse-error-message' } }).chat.completions.create({ model: 'nova', stream: true, messages: [{ role: 'user', content: 'Hi' }] });
    const finishes: unknown[] = [];
    const failure = await (async () => {
      for await (const chunk of stream) finishes.push(chunk.choices[0]?.finish_reason);
    })().catch((error: unknown) => error);

    expect(failure).toMatchObject({ message: 'The request processing has failed because of an unknown error.' });
    expect(finishes.filter(Boolean)).toEqual([]);
    expect(await generation('bedrock-converse-error-message')).toMatchObject({ status: 'failed' });
  });

  it('answers a turn after tool calls that offers no tools (Converse requires a toolConfig then)', async () => {
    bedrock.answerWith(recordedAnswers);
    const completion = await gateway.openai(key).chat.completions.create({
      model: 'nova',
      messages: [
        { role: 'user', content: 'Weather in Paris?' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
        { role: 'tool', tool_call_id: 'call_1', content: '18°C' },
        { role: 'user', content: 'Summarise the conversation.' },
      ],
    });

    expect(completion.choices[0]?.message.content).toContain('strawberry');
    expect(lastRequest().body.toolConfig).toMatchObject({ tools: [{ toolSpec: { name: 'no_tools_available' } }] });
  });

  it("maps Bedrock's refusal into an OpenAI client's error body", async () => {
    bedrock.answerWith((_request, response) => sendBedrockError(response, 400, 'ValidationException', 'The model returned the following errors: messages: text field is blank'));

    await expect(gateway.openai(key).chat.completions.create({ model: 'nova', messages: [{ role: 'user', content: 'Hi' }] })).rejects.toMatchObject({
      status: 400,
      error: { type: 'invalid_request_error', message: 'The model returned the following errors: messages: text field is blank' },
    });
  });
});

describe('failover on Bedrock', () => {
  it('moves on from a throttled model to the next one, counting the attempt', async () => {
    bedrock.answerWith((request, response) =>
      request.model === CLAUDE ? sendBedrockError(response, 429, 'ThrottlingException', 'Too many requests, please wait before trying again.') : recordedAnswers(request, response),
    );
    const { data, response } = await gateway
      .openai(key, { defaultHeaders: { 'x-request-id': 'bedrock-throttled' } })
      .chat.completions.create({ model: 'claude-haiku-4-5', models: ['nova'], route: 'fallback', messages: [{ role: 'user', content: 'Hi' }] } as never)
      .withResponse();

    expect(data.choices[0]?.message.content).toContain('strawberry');
    expect(response.headers.get('x-gateway-model')).toBe(`bedrock/${NOVA}`);
    expect(await generation('bedrock-throttled')).toMatchObject({ model: `bedrock/${NOVA}`, fallback_attempts: 1 });
  });

  it('moves on from a model that is not ready (a 429 that is no rate limit) the same way', async () => {
    bedrock.answerWith((request, response) =>
      request.model === CLAUDE ? sendBedrockError(response, 429, 'ModelNotReadyException', 'The model is not ready to serve inference requests.') : recordedAnswers(request, response),
    );
    const message = await anthropic().messages.create({ model: 'claude-haiku-4-5', models: ['nova'], route: 'fallback', max_tokens: 64, messages: [{ role: 'user', content: 'Hi' }] } as never);

    expect(message.content[0]).toMatchObject({ type: 'text', text: expect.stringContaining('strawberry') });
  });

  it('answers a throttled only target with 429 in the client protocol, and a model not ready as a provider failure, not a rate limit', async () => {
    bedrock.answerWith((_request, response) => sendBedrockError(response, 429, 'ThrottlingException', 'Too many requests, please wait before trying again.'));
    await expect(anthropic().messages.create({ model: 'claude-haiku-4-5', max_tokens: 64, messages: [{ role: 'user', content: 'Hi' }] })).rejects.toMatchObject({
      status: 429,
      error: { error: { type: 'rate_limit_error', message: 'Too many requests, please wait before trying again.' } },
    });
    await expect(gateway.openai(key).chat.completions.create({ model: 'nova', messages: [{ role: 'user', content: 'Hi' }] })).rejects.toMatchObject({ status: 429 });

    bedrock.answerWith((_request, response) => sendBedrockError(response, 429, 'ModelNotReadyException', 'The model is not ready.'));
    await expect(anthropic().messages.create({ model: 'claude-haiku-4-5', max_tokens: 64, messages: [{ role: 'user', content: 'Hi' }] })).rejects.toMatchObject({
      status: 502,
      error: { error: { type: 'overloaded_error', message: 'The model is not ready.' } },
    });
    await expect(gateway.openai(key).chat.completions.create({ model: 'nova', messages: [{ role: 'user', content: 'Hi' }] })).rejects.toMatchObject({ status: 502 });
  });
});

describe('credentials', () => {
  it("signs with a named profile's credentials when the provider names one", async () => {
    await gateway.admin({ command: 'provider.set', projectId: 'aws', provider: 'bedrock-dev', protocol: 'bedrock', region: 'us-east-1', profile: 'gateway-dev', baseUrl: bedrock.baseUrl });
    await gateway.admin({ command: 'model.allow', projectId: 'aws', slug: `bedrock-dev/${NOVA}` });
    bedrock.answerWith(recordedAnswers);

    await gateway.openai(key).chat.completions.create({ model: `bedrock-dev/${NOVA}`, messages: [{ role: 'user', content: 'Hi' }] });

    expect(lastRequest().authorization).toMatchObject({ kind: 'sigv4', accessKeyId: PROFILE.accessKeyId, region: 'us-east-1' });
  });

  it('sends a Bedrock API key as a bearer token instead of signing', async () => {
    await gateway.admin({ command: 'provider.set', projectId: 'aws', provider: 'bedrock-key', protocol: 'bedrock', region: 'us-east-1', apiKey: 'bedrock-api-key-0123456789', baseUrl: bedrock.baseUrl });
    await gateway.admin({ command: 'model.allow', projectId: 'aws', slug: `bedrock-key/${NOVA}` });
    bedrock.answerWith(recordedAnswers);

    await gateway.openai(key).chat.completions.create({ model: `bedrock-key/${NOVA}`, messages: [{ role: 'user', content: 'Hi' }] });

    expect(lastRequest().authorization).toEqual({ kind: 'bearer', token: 'bedrock-api-key-0123456789' });
  });

  it("tells a Messages client its model is not allowed to the gateway's role without the account or role the refusal names", async () => {
    bedrock.answerWith((_request, response) =>
      sendBedrockError(response, 403, 'AccessDeniedException', 'User: arn:aws:sts::123456789012:assumed-role/ModelGateway-RouteGroup/gateway-messages is not authorized to perform: bedrock:InvokeModelWithResponseStream'),
    );
    const failure = await anthropic().messages.create({ model: 'claude-haiku-4-5', max_tokens: 64, messages: [{ role: 'user', content: 'Hi' }] }).catch((error: unknown) => error);

    // api_error, as every refused provider credential on the messages route: not the client's own permission.
    expect(failure).toMatchObject({ status: 502, error: { error: { type: 'api_error', message: expect.stringContaining("refused the gateway's AWS credentials") } } });
    expect(JSON.stringify(failure)).not.toContain('arn:aws');
  });

  it("reports a signature the runtime refuses (a provider set for the wrong region) as the gateway's AWS credentials, not the client's", async () => {
    await gateway.admin({ command: 'provider.set', projectId: 'aws', provider: 'bedrock-eu', protocol: 'bedrock', region: 'eu-west-1', baseUrl: bedrock.baseUrl });
    await gateway.admin({ command: 'model.allow', projectId: 'aws', slug: `bedrock-eu/${NOVA}` });

    await expect(gateway.openai(key).chat.completions.create({ model: `bedrock-eu/${NOVA}`, messages: [{ role: 'user', content: 'Hi' }] })).rejects.toMatchObject({
      status: 502,
      error: { code: 'provider_auth_failed', message: expect.stringContaining("refused the gateway's AWS credentials (HTTP 403)") },
    });
    expect(bedrock.refused.at(-1)?.reason).toMatch(/valid region, not 'eu-west-1'/);
  });
});
