import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AthenaClient, GetQueryExecutionCommand, GetQueryResultsCommand, StartQueryExecutionCommand } from '@aws-sdk/client-athena';
import { DeleteObjectsCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { routeGroups } from '../../shared/http/route-groups.ts';
import { startEmbeddedStore, type EmbeddedStore } from '../../tools/local-host/embedded-store.ts';
import { bedrockIamCalls, iamCallsOf, recordDynamoCalls, sqsIamCalls, type AwsCall } from '../support/aws-call-recorder.ts';
import { startFakeS3, type FakeS3 } from '../support/fake-s3.ts';
import { startFakeSecretsManager, type FakeSecretsManager } from '../support/fake-secrets-manager.ts';
import { startFakeSqs, type FakeSqs } from '../support/fake-sqs.ts';
import { anthropicStreamFrames, converseStreamFrames } from '../support/bedrock-event-stream.ts';
import { sendBedrockJson, sendEventStream, startFakeBedrockRuntime, type FakeBedrockRuntime } from '../support/fake-bedrock-runtime.ts';
import { sendJson, sendSse, sseEvents, startFakeOpenAiUpstream, type FakeUpstream } from '../support/fake-openai-upstream.ts';
import { readFixture } from '../support/fixtures.ts';
import { startDocsServer, type McpUpstream } from '../support/mcp-upstream-servers.ts';
import { CONSOLE_OWNER, exerciseAdmin, exerciseConsole, exerciseRouteGroup, exerciseUsageCompactor, exerciseWriter, fakeUserPool, usageFilesToCompact } from './function-drivers.ts';
import { allows, grantedToTheLambdaService, grantsOfFunction, type Grant } from './policy-grants.ts';
import { routeGroupRequests } from './route-group-requests.ts';
import { SymbolicResources } from './symbolic-resources.ts';
import { logicalId, resourcesOfType, synthesizeGateway, TEST_ENV, type SynthesizedGateway } from './synth-gateway.ts';

/**
 * Least privilege both ways, per function: each function's real handler runs its operations against the
 * embedded store (DynamoDB, through a recording stand-in), fakes of SQS and Secrets Manager that check
 * signatures, and aws-sdk-client-mock (S3, Athena); every command it
 * sends is recorded as the IAM action and resource it needs. The synthesized policy of that function must
 * allow each of them, and must grant nothing that no command used (except what AWS services use the role
 * for: Lambda's logs and queue polling, and Athena reading and writing for a query the function started).
 */
const ORIGIN_SECRET = 'origin-secret-value-0123456789abcdef';
/** The credentials Lambda gives a function's role, in its environment; Bedrock calls are signed with them. */
const ROLE = { AWS_ACCESS_KEY_ID: 'AKIDROUTEGROUPROLE01', AWS_SECRET_ACCESS_KEY: 'route-group-role-secret-0123456789', AWS_SESSION_TOKEN: 'route-group-session-token' };
/** What the deployment settings let the route groups invoke on Bedrock: a Claude inference profile and a foundation model. */
const BEDROCK_MODELS = ['us.anthropic.claude-haiku-4-5-20251001-v1:0', 'amazon.nova-pro-v1:0'];
const DOCS_HEADER = { name: 'X-Docs-Token', value: 'docs-secret-0123456789' };
const athenaWorkGroups = new Map<string, string>();
const context = { region: TEST_ENV.region, account: TEST_ENV.account, athenaWorkGroups };

let gateway: SynthesizedGateway;
let symbols: SymbolicResources;
let store: EmbeddedStore;
let storeDirectory: string;
let upstream: FakeUpstream;
let mcpServer: McpUpstream;
let bedrock: FakeBedrockRuntime;
let secretsManager: FakeSecretsManager;
/** S3's object calls made without the SDK (usage files put and read, the console's site file); the SDK's S3 client is mocked. */
let s3Objects: FakeS3;
let sqs: FakeSqs;
const s3 = mockClient(S3Client);
const athena = mockClient(AthenaClient);
let dynamo: Awaited<ReturnType<typeof recordDynamoCalls>>;
const used = new Map<string, AwsCall[]>();

/** The function's environment from the template, pointed at the embedded store. */
function environmentOf(prefix: string): Record<string, string> {
  const id = logicalId(gateway.template, 'AWS::Lambda::Function', prefix);
  const variables = (resourcesOfType(gateway.template, 'AWS::Lambda::Function')[id]?.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
  const resolved = Object.fromEntries(Object.entries(variables).map(([name, value]) => [name, symbols.resolve(value)]));
  return { ...resolved, ...ROLE, AWS_REGION: context.region, GATEWAY_DYNAMODB_ENDPOINT: dynamo.endpoint, AWS_ENDPOINT_URL_SQS: sqs.endpoint, AWS_ENDPOINT_URL_SECRETS_MANAGER: secretsManager.endpoint, AWS_ENDPOINT_URL_S3: s3Objects.endpoint, GATEWAY_ALLOW_PRIVATE_UPSTREAMS: 'true', POWERTOOLS_LOG_LEVEL: 'SILENT' };
}

/** Runs `exercise` and keeps every AWS call it made under the function's name. */
async function recordCalls(prefix: string, exercise: () => Promise<unknown>): Promise<void> {
  for (const mock of [s3, athena]) mock.resetHistory();
  secretsManager.calls.length = 0;
  s3Objects.calls.length = 0;
  dynamo.calls.length = 0;
  const bedrockBefore = bedrock.received.length;
  const sqsBefore = sqs.attempts.length;
  dynamo.start();
  try {
    await exercise();
  } finally {
    dynamo.stop();
  }
  const mocked = [s3, athena].flatMap((mock) => mock.calls().flatMap((call) => iamCallsOf(call.args[0] as never, context)));
  const secretCalls = secretsManager.calls.flatMap((call) => iamCallsOf({ constructor: { name: call.operation }, input: call.input }, context));
  const objectCalls = s3Objects.calls.flatMap((call) => iamCallsOf({ constructor: { name: call.operation }, input: { Bucket: call.bucket, Key: call.key } }, context));
  // Bedrock and SQS are called over HTTP, signed: their fakes saw each call (and checked its signature).
  const invoked = bedrock.received.slice(bedrockBefore).flatMap((request) => bedrockIamCalls(request, context));
  const queued = sqs.attempts.slice(sqsBefore).flatMap((message) => sqsIamCalls(message, context));
  used.set(prefix, [...dynamo.calls, ...mocked, ...secretCalls, ...objectCalls, ...invoked, ...queued]);
}

const grantsOf = (prefix: string): Grant[] => grantsOfFunction(gateway, symbols, prefix);
const grantedForTheService = (prefix: string, grant: Grant): boolean => grantedToTheLambdaService(gateway, symbols, prefix, grant, used.get(prefix) ?? []);

const functions = [...routeGroups.map((group) => `RouteGroup${group.name}`), 'Writer', 'Admin', 'UsageCompactionCompactor', 'ConsoleApi'];

beforeAll(async () => {
  gateway = synthesizeGateway({ bedrock: { models: BEDROCK_MODELS } });
  symbols = new SymbolicResources(gateway.template, context);
  const tableName = (name: string) => logicalId(gateway.template, 'AWS::DynamoDB::GlobalTable', `Tables${name}`);
  storeDirectory = await mkdtemp(join(tmpdir(), 'least-privilege-'));
  store = await startEmbeddedStore(storeDirectory, {
    keys: tableName('Keys'),
    projects: tableName('Projects'),
    generations: tableName('Generations'),
    counters: tableName('Counters'),
  });
  dynamo = await recordDynamoCalls(store.endpoint, context);
  upstream = await startFakeOpenAiUpstream();
  upstream.answerWith((request, response) => {
    // A video job: queued when made, completed when looked at.
    if (request.path.startsWith('/v1/videos')) return sendJson(response, 200, { id: 'video_lp', object: 'video', model: 'sora-2', status: request.method === 'POST' ? 'queued' : 'completed', seconds: '4', created_at: 1 });
    // The editor route asks OpenAI's Responses API: it answers in its own events, which end with response.completed.
    if (request.path.endsWith('/responses')) {
      return request.body.stream
        ? sendSse(response, sseEvents(readFixture('openai-responses/responses-stream-text.sse')), 0)
        : sendJson(response, 200, readFixture('openai-responses/responses-nonstream-text.json'));
    }
    return request.body.stream
      ? sendSse(response, sseEvents(readFixture('openai-chat/chat-stream-text-include-usage.sse')), 0)
      : sendJson(response, 200, readFixture('openai-chat/chat-nonstream-text-usage-details.json'));
  });
  mcpServer = await startDocsServer(DOCS_HEADER.value);
  const roleCredentials = { [ROLE.AWS_ACCESS_KEY_ID]: { secretAccessKey: ROLE.AWS_SECRET_ACCESS_KEY, sessionToken: ROLE.AWS_SESSION_TOKEN } };
  bedrock = await startFakeBedrockRuntime({ region: context.region, credentials: roleCredentials });
  sqs = await startFakeSqs({ signedWith: { region: context.region, credentials: roleCredentials } });
  s3Objects = await startFakeS3({ region: context.region, signedWith: roleCredentials });
  // The origin secret, an MCP server's headers (`<prefix><project>/mcp/<server>`), else a provider key.
  secretsManager = await startFakeSecretsManager({
    region: context.region,
    account: context.account,
    signedWith: roleCredentials,
    unstoredValue: (secretId) =>
      secretId === environmentOf('RouteGroupopenai').GATEWAY_ORIGIN_SECRET_ARN ? ORIGIN_SECRET : JSON.stringify({ apiKey: secretId.includes('/mcp/') ? JSON.stringify({ [DOCS_HEADER.name]: DOCS_HEADER.value }) : 'sk-upstream-0123456789' }),
  });
  bedrock.answerWith((request, response) => {
    switch (request.operation) {
      case 'invoke':
        return sendBedrockJson(response, readFixture('anthropic/messages-nonstream-text.json'));
      case 'invoke-with-response-stream':
        return sendEventStream(response, anthropicStreamFrames(readFixture('anthropic/messages-stream-text.sse'), { inputTokenCount: 10, outputTokenCount: 4 }), 0);
      case 'converse':
        return sendBedrockJson(response, readFixture('bedrock/converse-text.json'));
      case 'converse-stream':
        return sendEventStream(response, converseStreamFrames(readFixture('bedrock/converse-stream-text.chunks.txt')), 0);
    }
  });
  s3.on(PutObjectCommand).resolves({});
  // Two batch files of one day for the compactor to merge.
  const toCompact = usageFilesToCompact();
  s3.on(ListObjectsV2Command).callsFake((input: { Prefix?: string }) => ({
    Contents: toCompact.files.filter((file) => file.key.startsWith(input.Prefix ?? '')).map((file) => ({ Key: file.key })),
    IsTruncated: false,
  }));
  const usageBucket = environmentOf('UsageCompactionCompactor').GATEWAY_USAGE_BUCKET;
  for (const file of toCompact.files) s3Objects.objects.set(`${usageBucket}/${file.key}`, Buffer.from(file.body));
  s3.on(DeleteObjectsCommand).resolves({});

  const { key, keyId } = await (async () => {
    let created = { key: '', keyId: '' };
    await recordCalls('Admin', async () => {
      created = await exerciseAdmin(environmentOf('Admin'), upstream.baseUrl, { url: mcpServer.url, header: DOCS_HEADER }, { baseUrl: bedrock.baseUrl, region: context.region, models: BEDROCK_MODELS });
    });
    return created;
  })();
  await recordCalls('Writer', () => exerciseWriter(environmentOf('Writer'), { projectId: 'acme', keyId, requestId: 'req-known' }));
  await recordCalls('UsageCompactionCompactor', () => exerciseUsageCompactor(environmentOf('UsageCompactionCompactor'), toCompact.day));
  await recordConsoleCalls();
  const requestsOf = routeGroupRequests(BEDROCK_MODELS);
  for (const group of routeGroups) {
    const requests = requestsOf[group.name];
    if (!requests) throw new Error(`No requests to exercise the ${group.name} route group with: add them here`);
    const prefix = `RouteGroup${group.name}`;
    // The queue refuses the first record: the route group spills it to the usage bucket.
    sqs.refuseNext(1, 'AccessDenied', 403);
    await recordCalls(prefix, () => exerciseRouteGroup(group.entry, `gateway-${group.name}`, environmentOf(prefix), { key, originSecret: ORIGIN_SECRET, requests }));
  }
}, 120_000);

/**
 * The console function in Cognito mode: its sign-in settings from the files bucket, ID tokens verified
 * against the pool's keys (only the key set's fetch is faked), usage queries in Athena.
 */
async function recordConsoleCalls(): Promise<void> {
  const site = { signIn: 'cognito', region: context.region, userPoolId: `${context.region}_ConsolePool`, clientId: 'console-client', signInOrigin: 'https://console.auth.us-east-1.amazoncognito.com' };
  s3Objects.objects.set(`${environmentOf('ConsoleApi').GATEWAY_CONSOLE_SITE_BUCKET}/console/config.json`, Buffer.from(JSON.stringify(site)));
  let queries = 0;
  athena.on(StartQueryExecutionCommand).callsFake(async (input: { WorkGroup: string }) => {
    const id = `query-${++queries}`;
    athenaWorkGroups.set(id, input.WorkGroup);
    return { QueryExecutionId: id };
  });
  athena.on(GetQueryExecutionCommand).resolves({ QueryExecution: { Status: { State: 'SUCCEEDED' } } });
  athena.on(GetQueryResultsCommand).resolves({ ResultSet: { ResultSetMetadata: { ColumnInfo: [] }, Rows: [] } });
  // A provider the console sets for the first time: its secret is created, then given a new version.
  secretsManager.refuseNext('PutSecretValue', 'ResourceNotFoundException');
  const idToken = fakeUserPool(site).idToken(CONSOLE_OWNER);
  await recordCalls('ConsoleApi', () =>
    exerciseConsole(environmentOf('ConsoleApi'), { idToken, originSecret: ORIGIN_SECRET, upstreamBaseUrl: upstream.baseUrl, projectId: 'acme' }),
  );
}

afterAll(async () => {
  vi.restoreAllMocks();
  for (const mock of [s3, athena]) mock.restore();
  await secretsManager?.close();
  await s3Objects?.close();
  await dynamo?.close();
  await upstream?.close();
  await sqs?.close();
  await mcpServer?.close();
  await bedrock?.close();
  await store?.close();
  await rm(storeDirectory, { recursive: true, force: true });
});

describe('least privilege, from what each function sends', () => {
  it.each(functions)('%s: the policy allows every action the code sends, on the resource it sends it to', (prefix) => {
    const grants = grantsOf(prefix);
    const calls = used.get(prefix) ?? [];
    expect(calls.length, `${prefix} sent nothing: the exercise did not run`).toBeGreaterThan(0);
    const denied = calls.filter((call) => !grants.some((grant) => allows(grant, call)));
    expect([...new Set(denied.map((call) => `${call.action} on ${call.resource}`))]).toEqual([]);
  });

  it.each(functions)('%s: the policy grants nothing that no command used', (prefix) => {
    const calls = used.get(prefix) ?? [];
    const unused = grantsOf(prefix).filter(
      (grant) => !grantedForTheService(prefix, grant) && !calls.some((call) => allows(grant, call)),
    );
    expect(unused.map((grant) => `${grant.action} on ${grant.resource}`)).toEqual([]);
  });

  it('spills a record the queue refused from every route group, as the exercise made it happen', () => {
    for (const group of routeGroups) {
      expect(used.get(`RouteGroup${group.name}`)?.some((call) => call.action === 's3:PutObject' && call.resource.includes('/spill/rec-'))).toBe(true);
    }
  });

  it('lets the compactor list the usage files of a day, read and delete them, and put their merge, under usage/ only', () => {
    const bucket = symbols.resolve({ 'Fn::GetAtt': [logicalId(gateway.template, 'AWS::S3::Bucket', 'UsageAnalyticsUsage'), 'Arn'] });
    const calls = used.get('UsageCompactionCompactor') ?? [];
    expect(calls).toContainEqual({ action: 's3:ListBucket', resource: bucket, context: { 's3:prefix': 'usage/dt=2025-03-01/' } });
    expect(new Set(calls.map((call) => call.action))).toEqual(new Set(['s3:ListBucket', 's3:GetObject', 's3:PutObject', 's3:DeleteObject']));
    // A listing of the whole bucket would not be allowed.
    const listing = grantsOf('UsageCompactionCompactor').find((grant) => grant.action === 's3:ListBucket');
    expect(listing && allows(listing, { action: 's3:ListBucket', resource: bucket, context: { 's3:prefix': 'spill/' } })).toBe(false);
  });

  it('invokes Bedrock from the route groups that call models, signed with the role, and grants the tool bridge no model', () => {
    for (const group of routeGroups) {
      const invoked = (used.get(`RouteGroup${group.name}`) ?? []).filter((call) => call.action.startsWith('bedrock:'));
      const granted = grantsOf(`RouteGroup${group.name}`).filter((grant) => grant.action.startsWith('bedrock:'));
      if (group.callsNoModels) {
        expect(invoked, group.name).toEqual([]);
        expect(granted, group.name).toEqual([]);
      } else {
        expect(new Set(invoked.map((call) => call.action)), group.name).toEqual(new Set(['bedrock:InvokeModel', 'bedrock:InvokeModelWithResponseStream']));
        // Each model by name; the profile's foundation model in every region, as the settings list no destination regions.
        expect(granted.some((grant) => grant.resource.endsWith('/*')), group.name).toBe(false);
        expect(new Set(granted.map((grant) => grant.resource).filter((resource) => resource.includes('*'))), group.name).toEqual(
          new Set(['arn:aws:bedrock:*::foundation-model/anthropic.claude-haiku-4-5-20251001-v1:0']),
        );
      }
    }
    expect(bedrock.refused).toEqual([]);
    expect(bedrock.received.every((request) => request.authorization.kind === 'sigv4' && request.authorization.accessKeyId === ROLE.AWS_ACCESS_KEY_ID)).toBe(true);
  });

  it('reaches the MCP server from the tool bridge with the header its secret holds', () => {
    expect(mcpServer.received.length).toBeGreaterThan(0);
    expect(mcpServer.received.every((headers) => headers['x-docs-token'] === DOCS_HEADER.value)).toBe(true);
  });

  it('reserves prepaid balances from the route groups: UpdateItem on the projects table, except from the free tool bridge', () => {
    const projects = symbols.resolve({ 'Fn::GetAtt': [logicalId(gateway.template, 'AWS::DynamoDB::GlobalTable', 'TablesProjects'), 'Arn'] });
    for (const group of routeGroups) {
      const updatesProjects = { action: 'dynamodb:UpdateItem', resource: projects };
      if (group.reservesNoBalance) {
        expect(used.get(`RouteGroup${group.name}`)).not.toContainEqual(updatesProjects);
        expect(grantsOf(`RouteGroup${group.name}`)).not.toContainEqual(updatesProjects);
      } else expect(used.get(`RouteGroup${group.name}`)).toContainEqual(updatesProjects);
    }
    expect(routeGroups.filter((group) => group.reservesNoBalance).map((group) => group.name)).toEqual(['mcp']);
  });

  it('grants Scan only to the admin function on projects (project list), no deletes or puts on projects to the writer, no secret reads to the admin function', () => {
    const projects = symbols.resolve({ 'Fn::GetAtt': [logicalId(gateway.template, 'AWS::DynamoDB::GlobalTable', 'TablesProjects'), 'Arn'] });
    for (const prefix of functions.filter((name) => name !== 'Admin')) expect(grantsOf(prefix).map((grant) => grant.action), prefix).not.toContain('dynamodb:Scan');
    expect(grantsOf('Admin').filter((grant) => grant.action === 'dynamodb:Scan').map((grant) => grant.resource)).toEqual([projects]);
    const writerOnProjects = grantsOf('Writer').filter((grant) => grant.resource === projects).map((grant) => grant.action);
    expect(writerOnProjects).toEqual(['dynamodb:UpdateItem']);
    expect(grantsOf('Admin').map((grant) => grant.action)).not.toContain('secretsmanager:GetSecretValue');
  });
});
