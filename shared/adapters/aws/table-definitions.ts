import type { CreateTableCommandInput } from '@aws-sdk/client-dynamodb';

/**
 * The key schemas of the gateway's tables, shared by the local store's start-up and the CDK stack so
 * the two cannot drift.
 *
 * keys:     keyHash (PK); index `by-project` (projectId, keyId) for listing and revocation.
 * projects: projectId (PK), itemKey (SK): `project`, `provider#<name>`, `model#<slug>`, `rate#<slug>`,
 *           `mcp#<server>` (the tool bridge's upstream servers), `usage` (spend, request count and credit); the
 *           organisation's rate card lives under projectId `@org` (not a valid project id). Console data lives
 *           in partitions that are no project's either: `@members#<projectId>` / `member#<member>` and
 *           `@person#<member>` / `project#<projectId>` (one membership, both ways), `@audit#<projectId>` /
 *           `entry#<time>#<id>` (the audit trail).
 * generations: generationKey = `<projectId>#<requestId>` (PK), recordId (SK); expires by TTL. The owner of a
 *           stored response is `@response#<upstream id>` / `owner`, the alias of an answer's id
 *           `@answer#<projectId>#<answer id>` / `<recordId>` (generation-keys.ts).
 */
export const KEYS_BY_PROJECT_INDEX = 'by-project';
export const ORG_PARTITION = '@org';

export const membersPartition = (projectId: string) => `@members#${projectId}`;
export const personPartition = (member: string) => `@person#${member}`;
export const auditPartition = (projectId: string) => `@audit#${projectId}`;

export function keysTableDefinition(tableName: string): CreateTableCommandInput {
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [
      { AttributeName: 'keyHash', AttributeType: 'S' },
      { AttributeName: 'projectId', AttributeType: 'S' },
      { AttributeName: 'keyId', AttributeType: 'S' },
    ],
    KeySchema: [{ AttributeName: 'keyHash', KeyType: 'HASH' }],
    GlobalSecondaryIndexes: [
      {
        IndexName: KEYS_BY_PROJECT_INDEX,
        KeySchema: [
          { AttributeName: 'projectId', KeyType: 'HASH' },
          { AttributeName: 'keyId', KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      },
    ],
  };
}

export function projectsTableDefinition(tableName: string): CreateTableCommandInput {
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [
      { AttributeName: 'projectId', AttributeType: 'S' },
      { AttributeName: 'itemKey', AttributeType: 'S' },
    ],
    KeySchema: [
      { AttributeName: 'projectId', KeyType: 'HASH' },
      { AttributeName: 'itemKey', KeyType: 'RANGE' },
    ],
  };
}

export const GENERATION_TTL_ATTRIBUTE = 'expiresAt';

/** When an item of the generations table made at `createdAt` expires (DynamoDB's TTL: epoch seconds). */
export function generationExpiresAt(createdAt: string, retentionDays: number): number {
  return Math.floor(Date.parse(createdAt) / 1000) + retentionDays * 86_400;
}

export function generationsTableDefinition(tableName: string): CreateTableCommandInput {
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [
      { AttributeName: 'generationKey', AttributeType: 'S' },
      { AttributeName: 'recordId', AttributeType: 'S' },
    ],
    KeySchema: [
      { AttributeName: 'generationKey', KeyType: 'HASH' },
      { AttributeName: 'recordId', KeyType: 'RANGE' },
    ],
  };
}

/**
 * counters: counterKey (PK), no sort key; short-lived request and token counters of the rate limits,
 * each item removed by TTL once its window has passed.
 */
export const COUNTER_TTL_ATTRIBUTE = 'expiresAt';

export function countersTableDefinition(tableName: string): CreateTableCommandInput {
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [{ AttributeName: 'counterKey', AttributeType: 'S' }],
    KeySchema: [{ AttributeName: 'counterKey', KeyType: 'HASH' }],
  };
}
