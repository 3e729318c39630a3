import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anthropicStreamFrames, converseStreamFrames } from '../support/bedrock-event-stream.ts';
import { ensureClaudeCode, runClaudeCode } from '../support/claude-code.ts';
import { sendBedrockJson, sendEventStream, startFakeBedrockRuntime, type FakeBedrockRuntime } from '../support/fake-bedrock-runtime.ts';
import { readFixture } from '../support/fixtures.ts';
import { startTestGateway, type TestGateway } from '../support/test-gateway.ts';
import { BEDROCK_ANTHROPIC_BETAS } from '../../shared/protocols/bedrock-anthropic-messages/bedrock-anthropic-betas.ts';

/**
 * Claude Code, unchanged and unaware of Bedrock, completes a headless turn on Claude served by Bedrock:
 * it speaks Anthropic's Messages protocol to the gateway, which signs the call with its AWS credentials
 * (the default chain: here the environment's, as a Lambda's role gives them) for a fake runtime that
 * verifies the signature and streams Claude's recorded events in Bedrock's event-stream framing.
 */
const ROLE = { accessKeyId: 'AKIDCLAUDECODEROLE01', secretAccessKey: 'claude-code-role-secret-0123456789', sessionToken: 'claude-code-session-token' };
const CLAUDE = 'us.anthropic.claude-haiku-4-5-20251001-v1:0';
const NOVA = 'amazon.nova-pro-v1:0';
const savedEnvironment = { ...process.env };
let bedrock: FakeBedrockRuntime;
let gateway: TestGateway;
let key: string;
let claude: string;

beforeAll(async () => {
  claude = await ensureClaudeCode();
  Object.assign(process.env, { AWS_ACCESS_KEY_ID: ROLE.accessKeyId, AWS_SECRET_ACCESS_KEY: ROLE.secretAccessKey, AWS_SESSION_TOKEN: ROLE.sessionToken, AWS_EC2_METADATA_DISABLED: 'true' });
  delete process.env.AWS_PROFILE;
  bedrock = await startFakeBedrockRuntime({ region: 'us-east-1', credentials: { [ROLE.accessKeyId]: ROLE } });
  bedrock.answerWith((request, response) => {
    if (request.operation === 'converse-stream') return sendEventStream(response, converseStreamFrames(readFixture('bedrock/converse-stream-text.chunks.txt')));
    if (request.operation === 'converse') return sendBedrockJson(response, readFixture('bedrock/converse-text.json'));
    return request.operation === 'invoke-with-response-stream'
      ? sendEventStream(response, anthropicStreamFrames(readFixture('anthropic/messages-stream-text.sse'), { inputTokenCount: 10, outputTokenCount: 4 }))
      : sendBedrockJson(response, readFixture('anthropic/messages-nonstream-text.json'));
  });
  gateway = await startTestGateway();
  await gateway.admin({ command: 'project.create', projectId: 'coding' });
  await gateway.admin({ command: 'provider.set', projectId: 'coding', provider: 'bedrock', region: 'us-east-1', baseUrl: bedrock.baseUrl });
  // The alias is the name Claude Code asks for; the slug is the Bedrock inference profile that serves it.
  await gateway.admin({ command: 'model.allow', projectId: 'coding', slug: `bedrock/${CLAUDE}`, alias: 'claude-haiku-4-5', inputMicrosPer1k: 1000, outputMicrosPer1k: 5000 });
  await gateway.admin({ command: 'model.allow', projectId: 'coding', slug: `bedrock/${NOVA}`, alias: 'nova', inputMicrosPer1k: 800, outputMicrosPer1k: 3200 });
  key = (await gateway.admin<{ key: string }>({ command: 'key.create', projectId: 'coding' })).key;
}, 240_000);

afterAll(async () => {
  await gateway?.close();
  await bedrock?.close();
  for (const name of Object.keys(process.env)) if (!(name in savedEnvironment)) delete process.env[name];
  Object.assign(process.env, savedEnvironment);
});

describe('Claude Code through the gateway onto Bedrock', () => {
  it('completes a headless turn on a Bedrock Claude model, the call signed with the role and the turn metered', { timeout: 150_000 }, async () => {
    const result = await runClaudeCode(claude, { baseUrl: gateway.url, token: key, model: 'claude-haiku-4-5', prompt: 'Say hello' });

    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout.trim()).toBe('Hello');
    const turn = bedrock.received.find((request) => request.operation === 'invoke-with-response-stream');
    expect(turn).toMatchObject({ model: CLAUDE, authorization: { kind: 'sigv4', accessKeyId: ROLE.accessKeyId, region: 'us-east-1', service: 'bedrock' }, body: { anthropic_version: 'bedrock-2023-05-31' } });
    expect(turn?.body).not.toHaveProperty('model');
    expect(turn?.body).not.toHaveProperty('stream');
    // Claude Code's own beta came through; any beta Bedrock would refuse was left out.
    expect(turn?.body.anthropic_beta).toContain('claude-code-20250219');
    expect((turn?.body.anthropic_beta as string[]).every((beta) => BEDROCK_ANTHROPIC_BETAS.has(beta))).toBe(true);
    expect(bedrock.refused).toEqual([]);

    await gateway.host.drainUsage();
    const project = await gateway.admin<{ request_count: number; spent_usd: string }>({ command: 'project.get', projectId: 'coding' });
    // Bedrock's metrics count 10 input and 4 output tokens a turn: 10 × 1000 + 4 × 5000 nano-USD.
    expect(project.request_count).toBeGreaterThanOrEqual(1);
    expect(Number(project.spent_usd)).toBeCloseTo((project.request_count * (10 * 1000 + 4 * 5000)) / 1e9, 12);
  });

  it("completes a headless turn on another vendor's Bedrock model through Converse, which takes Claude Code's request as translated", { timeout: 150_000 }, async () => {
    bedrock.received.length = 0;
    const result = await runClaudeCode(claude, { baseUrl: gateway.url, token: key, model: 'nova', prompt: 'How many r in strawberry?' });

    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('There are **3**');
    const turn = bedrock.received.find((request) => request.operation === 'converse-stream');
    expect(turn?.model).toBe(NOVA);
    // The fake runtime answers what Converse refuses (a first turn not the user's, turns not alternating, blank
    // text, unanswered calls…) with a ValidationException, which would have failed the turn.
    expect(bedrock.refused).toEqual([]);
  });
});
