import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { PROJECT_ROOT } from '../../infra/bundling/handler-code.ts';
import { ORIGIN_SECRET_HEADER } from '../../shared/lambda/origin-secret.ts';
import { startEmbeddedStore, type EmbeddedStore } from '../../tools/local-host/embedded-store.ts';
import { sseEvents, startFakeOpenAiUpstream, type FakeUpstream } from '../support/fake-openai-upstream.ts';
import { startFakeSecretsManager, type FakeSecretsManager } from '../support/fake-secrets-manager.ts';
import { startFakeSqs, type FakeSqs } from '../support/fake-sqs.ts';
import { startDocsServer, type McpUpstream } from '../support/mcp-upstream-servers.ts';
import { readFixture } from '../support/fixtures.ts';
import { functionUrlEvent, lambdaContext, loadHandler } from '../support/handler-invocation.ts';
import { ensureRuntimeClientBuilt, type RunningFunction } from '../support/lambda-runtime-client.ts';
import { SymbolicResources } from './symbolic-resources.ts';
import { logicalId, resourcesOfType, synthesizeGateway, TEST_ENV, type SynthesizedGateway } from './synth-gateway.ts';

/**
 * The route groups' bundles, as `cdk synth` builds them for deployment, run by AWS's own runtime interface
 * client (aws-lambda-ric) against a Runtime API emulator, with the environment of the synthesized
 * template; the AWS SDK reaches the embedded DynamoDB store and loopback fakes of Secrets Manager and SQS
 * through AWS_ENDPOINT_URL_*; providers are fake upstreams on loopback. What the runtime receives on
 * /response is what a function URL turns into the client's HTTP response. The emulator itself is checked
 * against the runtime client in test/support/lambda-runtime-api.test.ts.
 */
const ORIGIN_SECRET = 'origin-secret-value-0123456789abcdef';
const context = { region: TEST_ENV.region, account: TEST_ENV.account };
/** Liveness only: how long an upstream holds back the rest of a stream if the runtime never shows the first delta. */
const HOLD_BACK_LIMIT_MS = 5_000;

let gateway: SynthesizedGateway;
let symbols: SymbolicResources;
let store: EmbeddedStore;
let secretsManager: FakeSecretsManager;
export let sqs: FakeSqs;
let upstream: FakeUpstream;
export let docsServer: McpUpstream;
export const DOCS_TOKEN = 'docs-token-0123456789';
export let workDirectory: string;
let key = '';
/** What happened, in order, across the upstream, the runtime and the fakes. */
export const timeline: string[] = [];
let upstreamScenario: 'whole' | 'broken' = 'whole';
let releaseUpstream: () => void = () => {};

/** Whether the upstream sends the rest of its held-back answer, or breaks the connection instead. */
export function setUpstreamScenario(scenario: 'whole' | 'broken'): void {
  upstreamScenario = scenario;
}

/** The function's role, as Lambda gives it in the environment: the usage queue checks its signatures. */
const ROLE = { accessKeyId: 'AKIDLOCALRUNTIMETEST', secretAccessKey: 'local-runtime-test-secret', sessionToken: 'local-runtime-test-session' };

export const awsEndpoints = () => ({
  AWS_REGION: context.region,
  AWS_DEFAULT_REGION: context.region,
  AWS_ACCESS_KEY_ID: ROLE.accessKeyId,
  AWS_SECRET_ACCESS_KEY: ROLE.secretAccessKey,
  AWS_SESSION_TOKEN: ROLE.sessionToken,
  AWS_ENDPOINT_URL_DYNAMODB: store.endpoint,
  AWS_ENDPOINT_URL_SECRETS_MANAGER: secretsManager.endpoint,
});

/** The function's environment exactly as the template sets it. */
export function deployedEnvironment(prefix: string): Record<string, string> {
  const id = logicalId(gateway.template, 'AWS::Lambda::Function', prefix);
  const variables = (resourcesOfType(gateway.template, 'AWS::Lambda::Function')[id]?.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
  return Object.fromEntries(Object.entries(variables).map(([name, value]) => [name, symbols.resolve(value)]));
}

export function assetDirectory(prefix: string): string {
  const id = logicalId(gateway.template, 'AWS::Lambda::Function', prefix);
  const code = resourcesOfType(gateway.template, 'AWS::Lambda::Function')[id]?.Properties.Code as { S3Key: string };
  return join(gateway.outdir, `asset.${code.S3Key.replace(/\.zip$/, '')}`);
}

/** Streams a recorded answer: the events up to the first text delta, then holds the rest until released. */
function answerFromRecording(): Parameters<FakeUpstream['answerWith']>[0] {
  return async (request, response) => {
    const anthropic = request.path.endsWith('/messages');
    const events = sseEvents(readFixture(anthropic ? 'anthropic/messages-stream-text.sse' : 'openai-chat/chat-stream-text-include-usage.sse'));
    const firstDelta = events.findIndex((event) => (anthropic ? event.includes('text_delta') : event.includes('"content":"The"')));
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    for (const event of events.slice(0, firstDelta + 1)) response.write(event);
    timeline.push('upstream: first delta sent, the rest held back');
    await new Promise<void>((resolve) => {
      const limit = setTimeout(resolve, HOLD_BACK_LIMIT_MS);
      releaseUpstream = () => {
        clearTimeout(limit);
        resolve();
      };
    });
    if (upstreamScenario === 'broken') {
      timeline.push('upstream: connection broken');
      response.socket?.destroy();
      return;
    }
    timeline.push('upstream: the rest sent');
    for (const event of events.slice(firstDelta + 1)) response.write(event);
    response.end();
  };
}

/** Configures the project with the admin function's own code, in this process, against the same store and secrets. */
async function configureProject(): Promise<string> {
  const admin = await loadHandler<(event: unknown, context: unknown) => Promise<{ ok: boolean; result?: unknown; error?: { message: string } }>>(
    'functions/admin/handler.ts',
    { ...deployedEnvironment('Admin'), ...awsEndpoints(), GATEWAY_ALLOW_PRIVATE_UPSTREAMS: 'true', POWERTOOLS_LOG_LEVEL: 'SILENT' },
  );
  const run = async <T>(command: Record<string, unknown>): Promise<T> => {
    const answer = await admin(command, lambdaContext('admin'));
    if (!answer.ok) throw new Error(`${String(command.command)}: ${answer.error?.message}`);
    return answer.result as T;
  };
  await run({ command: 'project.create', projectId: 'runtime' });
  await run({ command: 'provider.set', projectId: 'runtime', provider: 'openai', apiKey: 'sk-openai-0123456789', baseUrl: upstream.baseUrl, protocol: 'openai' });
  await run({ command: 'provider.set', projectId: 'runtime', provider: 'anthropic', apiKey: 'sk-ant-0123456789', baseUrl: upstream.baseUrl, protocol: 'anthropic' });
  await run({ command: 'model.allow', projectId: 'runtime', slug: 'openai/gpt-4o-mini', inputMicrosPer1k: 150, outputMicrosPer1k: 600 });
  await run({ command: 'model.allow', projectId: 'runtime', slug: 'anthropic/claude-haiku-4-5', inputMicrosPer1k: 1_000, outputMicrosPer1k: 5_000 });
  await run({ command: 'project.update', projectId: 'runtime', mcp: true });
  await run({ command: 'mcp.add', projectId: 'runtime', name: 'docs', url: docsServer.url, headers: [{ name: 'X-Docs-Token', value: DOCS_TOKEN }] });
  return (await run<{ key: string }>({ command: 'key.create', projectId: 'runtime', name: 'runtime-test' })).key;
}


/** Registers the file's set-up: the synthesized gateway, the embedded store, the fakes of Secrets Manager and SQS, the
 * upstreams, and project "runtime" with its key; `sqs`, `docsServer` and `workDirectory` are live once it has run. */
export function useRuntimeClientGateway(): void {
  beforeAll(async () => {
    await ensureRuntimeClientBuilt();
    gateway = synthesizeGateway();
    symbols = new SymbolicResources(gateway.template, context);
    const table = (name: string) => logicalId(gateway.template, 'AWS::DynamoDB::GlobalTable', `Tables${name}`);
    // Inside the project, so that the runtime-provided AWS SDK resolves from node_modules as it does in Lambda.
    const cache = join(PROJECT_ROOT, 'node_modules', '.cache');
    mkdirSync(cache, { recursive: true });
    workDirectory = mkdtempSync(join(cache, 'gateway-runtime-client-'));
    store = await startEmbeddedStore(join(workDirectory, 'store'), { keys: table('Keys'), projects: table('Projects'), generations: table('Generations'), counters: table('Counters') });
    secretsManager = await startFakeSecretsManager({ region: context.region, account: context.account });
    secretsManager.put(deployedEnvironment('RouteGroupopenai').GATEWAY_ORIGIN_SECRET_ARN ?? '', ORIGIN_SECRET);
    const onMessage = (message: { body: string }) => timeline.push(`sqs: usage record ${String((JSON.parse(message.body) as { status?: string }).status)}`);
    sqs = await startFakeSqs({ onMessage, signedWith: { region: context.region, credentials: { [ROLE.accessKeyId]: ROLE } } });
    upstream = await startFakeOpenAiUpstream();
    upstream.answerWith(answerFromRecording());
    docsServer = await startDocsServer(DOCS_TOKEN);
    key = await configureProject();
  }, 300_000);

  afterAll(async () => {
    await upstream?.close();
    await docsServer?.close();
    await sqs?.close();
    await secretsManager?.close();
    await store?.close();
    for (const name of Object.keys(process.env)) if (name.startsWith('AWS_')) delete process.env[name];
    if (workDirectory) rmSync(workDirectory, { recursive: true, force: true });
  });
}

/**
 * The template's queue URL with the fake's origin: without AWS_ENDPOINT_URL_SQS, the usage sink sends to the
 * host of the queue URL (which, in AWS, is SQS's endpoint), signed with the role's credentials.
 */
export function queueUrlOnTheFake(group: string): string {
  const deployed = new URL(deployedEnvironment(`RouteGroup${group}`).GATEWAY_USAGE_QUEUE_URL ?? '');
  return `${sqs.endpoint}${deployed.pathname}`;
}

/** Invokes with a function-URL event, noting when the runtime first shows `marker` and when it completes the response. */
export async function invokeStreaming(running: RunningFunction, request: { path: string; body: unknown; key?: string; headers?: Record<string, string> }, marker?: string) {
  let seen = false;
  const invocation = running.runtimeApi.invoke(
    functionUrlEvent({ method: 'POST', path: request.path, body: request.body, headers: { authorization: `Bearer ${request.key ?? key}`, [ORIGIN_SECRET_HEADER]: ORIGIN_SECRET, ...request.headers } }),
    {
      onBody: (body) => {
        if (seen || marker === undefined || !body.toString('utf8').includes(marker)) return;
        seen = true;
        timeline.push('runtime: first delta received on /response');
        releaseUpstream();
      },
    },
  );
  const result = await Promise.race([invocation.result, running.runtime.crashed]);
  timeline.push('runtime: /response complete');
  if (result.kind !== 'response') throw new Error(`the runtime reported an error: ${JSON.stringify(result)}\n${running.runtime.output()}`);
  await Promise.race([invocation.ended, running.runtime.crashed]);
  timeline.push('runtime: invocation over (asks for the next)');
  return result;
}
