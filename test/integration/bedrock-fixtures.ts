import Anthropic from '@anthropic-ai/sdk';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { anthropicStreamFrames, converseStreamFrames } from '../support/bedrock-event-stream.ts';
import { sendBedrockJson, sendEventStream, startFakeBedrockRuntime, type BedrockScript, type FakeBedrockRuntime } from '../support/fake-bedrock-runtime.ts';
import { readFixture } from '../support/fixtures.ts';
import { startTestGateway, type TestGateway } from '../support/test-gateway.ts';

/**
 * Bedrock end to end, offline: the gateway signs its calls with the AWS SDK's default credential chain
 * (here, the environment's credentials, as in Lambda) or a profile, and a fake runtime checks every
 * signature (service bedrock, region us-east-1) and answers in event-stream frames built with the codec.
 */
export const ROLE = { accessKeyId: 'AKIDGATEWAYROLE00001', secretAccessKey: 'role-secret-access-key-0123456789', sessionToken: 'role-session-token-0123456789' };
export const PROFILE = { accessKeyId: 'AKIDGATEWAYPROFILE01', secretAccessKey: 'profile-secret-access-key-0123456789' };
export const CLAUDE = 'us.anthropic.claude-haiku-4-5-20251001-v1:0';
export const NOVA = 'amazon.nova-pro-v1:0';
/** Bedrock's invocation metrics on the recorded stream (the events themselves report 10 in and 4 out). */
export const METRICS = { inputTokenCount: 11, outputTokenCount: 5 };

const savedEnvironment = { ...process.env };
let credentialFiles: string;
export let bedrock: FakeBedrockRuntime;
export let gateway: TestGateway;
export let key: string;

/** Answers each operation with its recording: Anthropic's events and message for InvokeModel, vercel/ai's Converse recordings. */
export const recordedAnswers: BedrockScript = async (request, response) => {
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

/** Registers the file's set-up: AWS credentials in the environment and a profile file, the fake runtime, and a gateway
 * with project "aws" allowing Claude and Nova on Bedrock; `bedrock`, `gateway` and `key` are live once it has run. */
export function useBedrockGateway(): void {
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
}

export const anthropic = (headers: Record<string, string> = {}) => new Anthropic({ authToken: key, apiKey: null, baseURL: gateway.url, maxRetries: 0, defaultHeaders: headers });

export async function generation(id: string): Promise<Record<string, unknown>> {
  const lookup = () => fetch(`${gateway.url}/v1/generation?id=${id}`, { headers: { authorization: `Bearer ${key}` } });
  await expect.poll(async () => (await lookup()).status, { timeout: 2_000, interval: 50 }).toBe(200);
  return (await (await lookup()).json()) as Record<string, unknown>;
}

export function lastRequest() {
  const request = bedrock.received.at(-1);
  if (!request) throw new Error('Bedrock received nothing');
  return request;
}
