import { beforeAll, describe, expect, it } from 'vitest';
import { actionsOf, actionsOn, resourcesOf, statementsOfFunction, type Statement } from './iam-statements.ts';
import { routeGroups } from '../../shared/http/route-groups.ts';
import { logicalId, synthesizeGateway, type SynthesizedGateway } from './synth-gateway.ts';

let gateway: SynthesizedGateway;
let openAi: Statement[];
let writer: Statement[];
let admin: Statement[];
let consoleApi: Statement[];
beforeAll(() => {
  gateway = synthesizeGateway();
  openAi = statementsOfFunction(gateway.template, 'RouteGroupopenai');
  writer = statementsOfFunction(gateway.template, 'Writer');
  admin = statementsOfFunction(gateway.template, 'Admin');
  consoleApi = statementsOfFunction(gateway.template, 'ConsoleApi');
});

const PROVIDER_SECRETS = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:model-gateway/provider/*';
const table = (name: string) => logicalId(gateway.template, 'AWS::DynamoDB::GlobalTable', `Tables${name}`);

describe('least-privilege grants', () => {
  it('lets the OpenAI function read provider keys but never create or change them', () => {
    expect(actionsOn(openAi, PROVIDER_SECRETS)).toEqual(['secretsmanager:GetSecretValue']);
    const secretActions = openAi.flatMap(actionsOf).filter((action) => action.startsWith('secretsmanager:'));
    expect(secretActions).not.toContain('secretsmanager:CreateSecret');
    expect(secretActions).not.toContain('secretsmanager:PutSecretValue');
  });

  it('lets every route group read the origin secret and provider keys, which no other function can', () => {
    const originSecret = logicalId(gateway.template, 'AWS::SecretsManager::Secret', 'OriginSecret');
    for (const group of routeGroups) {
      const statements = statementsOfFunction(gateway.template, `RouteGroup${group.name}`);
      expect(actionsOn(statements, originSecret), group.name).toContain('secretsmanager:GetSecretValue');
      expect(actionsOn(statements, PROVIDER_SECRETS), group.name).toEqual(['secretsmanager:GetSecretValue']);
    }
    expect(actionsOn(writer, originSecret)).toEqual([]);
    expect(actionsOn(admin, originSecret)).toEqual([]);
  });

  it('gives the request path reads of keys, projects and generations, balance reservations on projects, counters', () => {
    expect(actionsOn(openAi, table('Keys'))).toEqual(['dynamodb:GetItem']);
    // Prepaid admission reserves the worst case with a conditional UpdateItem on the project's usage item;
    // the key and credit checks read that item (GetItem), from this group only.
    expect(actionsOn(openAi, table('Projects'))).toEqual(['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:UpdateItem']);
    for (const group of ['messages', 'editor', 'mcp']) {
      expect(actionsOn(statementsOfFunction(gateway.template, `RouteGroup${group}`), table('Projects')), group).not.toContain('dynamodb:GetItem');
    }
    // Generation lookups (Query), and the projects' video jobs (kept and billed once by updates, found, listed): no record is put from the request path.
    expect(actionsOn(openAi, table('Generations'))).toEqual(['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:UpdateItem']);
    expect(actionsOn(openAi, table('Counters'))).toEqual(['dynamodb:UpdateItem']);
    for (const name of ['Keys', 'Projects', 'Counters']) {
      for (const write of ['dynamodb:PutItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem', 'dynamodb:Scan']) expect(actionsOn(openAi, table(name))).not.toContain(write);
    }
    for (const write of ['dynamodb:DeleteItem', 'dynamodb:BatchWriteItem', 'dynamodb:Scan']) expect(actionsOn(openAi, table('Generations'))).not.toContain(write);
  });

  it('keeps video jobs in the generations table from the openai route group only', () => {
    for (const group of ['messages', 'mcp']) {
      expect(actionsOn(statementsOfFunction(gateway.template, `RouteGroup${group}`), table('Generations'))).not.toContain('dynamodb:PutItem');
    }
  });

  it('gives the tool bridge the request path without balance reservations or generation lookups: its calls are free', () => {
    const bridge = statementsOfFunction(gateway.template, 'RouteGroupmcp');
    expect(actionsOn(bridge, table('Keys'))).toEqual(['dynamodb:GetItem']);
    expect(actionsOn(bridge, table('Projects'))).toEqual(['dynamodb:Query']);
    expect(actionsOn(bridge, table('Generations'))).toEqual([]);
    expect(actionsOn(bridge, table('Counters'))).toEqual(['dynamodb:UpdateItem']);
  });

  it('lets the OpenAI function send usage records to the queue, and not read them', () => {
    const queue = logicalId(gateway.template, 'AWS::SQS::Queue', 'UsageQueueRecords');
    const actions = actionsOn(openAi, queue);
    expect(actions).toContain('sqs:SendMessage');
    expect(actions).not.toContain('sqs:ReceiveMessage');
  });

  it('gives the writer no secret at all', () => {
    expect(writer.flatMap(actionsOf).filter((action) => action.startsWith('secretsmanager:'))).toEqual([]);
    expect(JSON.stringify(writer)).not.toContain('model-gateway/provider');
  });

  it('lets the writer record usage: generations and project spend, files under usage/ (put only)', () => {
    expect(actionsOn(writer, table('Generations'))).toEqual(['dynamodb:PutItem']);
    expect(actionsOn(writer, table('Projects'))).toEqual(['dynamodb:UpdateItem']);
    // Keys only to stamp their last use: one index query and one attribute update, nothing else.
    expect(actionsOn(writer, table('Keys'))).toEqual(['dynamodb:Query', 'dynamodb:UpdateItem']);
    const bucket = logicalId(gateway.template, 'AWS::S3::Bucket', 'UsageAnalyticsUsage');
    const fileStatements = writer.filter((statement) => JSON.stringify(statement.Resource).includes(bucket));
    expect(fileStatements.flatMap(actionsOf)).toEqual(['s3:PutObject']);
    expect(JSON.stringify(fileStatements[0]?.Resource)).toContain('/usage/*');
    const queue = logicalId(gateway.template, 'AWS::SQS::Queue', 'UsageQueueRecords');
    expect(actionsOn(writer, queue)).toEqual(expect.arrayContaining(['sqs:ReceiveMessage', 'sqs:DeleteMessage']));
  });

  it('lets the usage compactor list, read, put and delete usage files only, listing only under usage/', () => {
    const compactor = statementsOfFunction(gateway.template, 'UsageCompactionCompactor');
    const bucket = logicalId(gateway.template, 'AWS::S3::Bucket', 'UsageAnalyticsUsage');
    const onBucket = compactor.filter((statement) => JSON.stringify(statement.Resource).includes(bucket));
    expect(onBucket.flatMap(actionsOf).sort()).toEqual(['s3:DeleteObject', 's3:GetObject', 's3:ListBucket', 's3:PutObject']);
    const listing = onBucket.find((statement) => actionsOf(statement).includes('s3:ListBucket')) as Statement & { Condition?: unknown };
    expect(listing.Condition).toEqual({ StringLike: { 's3:prefix': 'usage/*' } });
    for (const statement of onBucket.filter((each) => each !== listing)) expect(JSON.stringify(statement.Resource)).toContain('/usage/*');
    expect(compactor.flatMap(actionsOf).filter((action) => !action.startsWith('s3:') && !action.startsWith('logs:'))).toEqual([]);
  });

  it('lets the admin function create, update and delete provider keys (never read them), and manage keys and projects', () => {
    expect(actionsOn(admin, PROVIDER_SECRETS)).toEqual(['secretsmanager:CreateSecret', 'secretsmanager:DeleteSecret', 'secretsmanager:PutSecretValue']);
    expect(actionsOn(admin, table('Keys'))).toEqual(expect.arrayContaining(['dynamodb:PutItem', 'dynamodb:Query', 'dynamodb:UpdateItem']));
    expect(actionsOn(admin, table('Projects'))).toEqual(expect.arrayContaining(['dynamodb:PutItem', 'dynamodb:DeleteItem']));
    expect(admin.flatMap(actionsOf).filter((action) => action.startsWith('sqs:'))).toEqual([]);
  });

  it("lets the console API run its routes' admin commands (keys, projects, provider keys) and the usage queries, nothing more", () => {
    // Sets provider keys, never reads or deletes them (no provider remove in the console).
    expect(actionsOn(consoleApi, PROVIDER_SECRETS)).toEqual(['secretsmanager:CreateSecret', 'secretsmanager:PutSecretValue']);
    expect(actionsOn(consoleApi, table('Keys'))).toEqual(actionsOn(admin, table('Keys')));
    // The admin function's, but no Scan (it lists a person's projects, never all) and no UpdateItem (no balances).
    const notInConsole = ['dynamodb:Scan', 'dynamodb:UpdateItem'];
    expect(actionsOn(consoleApi, table('Projects'))).toEqual(actionsOn(admin, table('Projects')).filter((action) => !notInConsole.includes(action)));
    expect(actionsOn(consoleApi, table('Generations'))).toEqual([]);
    expect(actionsOn(consoleApi, 'UsageAnalyticsWorkGroup')).toEqual(['athena:GetQueryExecution', 'athena:GetQueryResults', 'athena:StartQueryExecution']);
    const usageBucket = logicalId(gateway.template, 'AWS::S3::Bucket', 'UsageAnalyticsUsage');
    expect(actionsOn(consoleApi, usageBucket)).not.toContain('s3:PutObject');
    expect(actionsOn(consoleApi, usageBucket)).toContain('s3:GetObject');
    const files = logicalId(gateway.template, 'AWS::S3::Bucket', 'ConsoleFiles');
    const fileStatements = consoleApi.filter((statement) => JSON.stringify(statement.Resource).includes(files));
    expect(fileStatements.flatMap(actionsOf)).toEqual(['s3:GetObject']);
    expect(JSON.stringify(fileStatements[0]?.Resource)).toContain('/console/config.json');
    expect(consoleApi.flatMap(actionsOf).filter((action) => action.startsWith('sqs:'))).toEqual([]);
  });

  it('grants nothing on every resource, and no service-wide action', () => {
    for (const statement of [...openAi, ...writer, ...admin, ...consoleApi]) {
      expect(resourcesOf(statement)).not.toContain('*');
      for (const action of actionsOf(statement)) expect(action).not.toMatch(/:\*$/);
    }
  });

  it('lets each function write only to its own log group', () => {
    for (const [statements, prefix] of [[openAi, 'RouteGroupopenai'], [writer, 'Writer'], [admin, 'Admin'], [consoleApi, 'ConsoleApi']] as const) {
      const logGroup = logicalId(gateway.template, 'AWS::Logs::LogGroup', prefix);
      const logStatements = statements.filter((statement) => actionsOf(statement).some((action) => action.startsWith('logs:')));
      expect(logStatements.length).toBeGreaterThan(0);
      for (const statement of logStatements) expect(JSON.stringify(statement.Resource)).toContain(logGroup);
    }
    for (const role of Object.values(gateway.template.findResources('AWS::IAM::Role'))) {
      expect(role.Properties).not.toHaveProperty('ManagedPolicyArns');
    }
  });
});
