import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { QueryCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { storesUpstreamObjects } from '../../core/endpoints.ts';
import type { GenerationLookup, StoredResponseOwner, UsageLedger } from '../../core/ports.ts';
import { usageRecordSchema, type UsageRecord } from '../../core/usage-record.ts';
import { GENERATION_TTL_ATTRIBUTE } from './table-definitions.ts';

export interface UsageLedgerTables {
  generations: string;
  projects: string;
  /** How long generation records stay queryable through the API (the usage files keep them for good). */
  retentionDays: number;
}

export function generationKey(projectId: string, requestId: string): string {
  return `${projectId}#${requestId}`;
}

/** The key of a stored answer's owner item; `@` cannot begin a project id, so it never meets a generation key. */
export function storedResponseKey(responseId: string): string {
  return `@response#${responseId}`;
}

/**
 * Generation records and project spend in DynamoDB. A record and its cost land in one transaction whose
 * put is conditional on the record id being new: redelivered or duplicated messages change nothing, and
 * two requests that reuse one X-Request-ID are two records, both counted. A record of an answer the
 * provider stores (a response) also writes, in the same transaction, a small item keyed by the upstream
 * id naming its project and provider, so that stored responses are reached only by their project.
 */
export class DynamoUsageLedger implements UsageLedger, GenerationLookup {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tables: UsageLedgerTables,
  ) {}

  async recordOnce(record: UsageRecord): Promise<boolean> {
    const expiresAt = Math.floor(Date.parse(record.createdAt) / 1000) + this.tables.retentionDays * 86_400;
    const owner = record.upstreamId && storesUpstreamObjects(record.endpoint) ? this.ownerItem(record, record.upstreamId, expiresAt) : undefined;
    try {
      await this.client.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Put: {
                TableName: this.tables.generations,
                Item: { ...record, generationKey: generationKey(record.projectId, record.requestId), [GENERATION_TTL_ATTRIBUTE]: expiresAt },
                ConditionExpression: 'attribute_not_exists(recordId)',
              },
            },
            {
              Update: {
                TableName: this.tables.projects,
                Key: { projectId: record.projectId, itemKey: 'usage' },
                // A prepaid request settles against the balance: its reservation back, its real cost taken.
                UpdateExpression: record.prepaid
                  ? 'ADD spentNanos :cost, requestCount :one, availableNanos :settlement SET updatedAt = :now'
                  : 'ADD spentNanos :cost, requestCount :one SET updatedAt = :now',
                ExpressionAttributeValues: {
                  ':cost': record.costNanos,
                  ':one': 1,
                  ':now': record.createdAt,
                  ...(record.prepaid ? { ':settlement': record.reservedNanos - record.costNanos } : {}),
                },
              },
            },
            ...(owner ? [{ Put: { TableName: this.tables.generations, Item: owner } }] : []),
          ],
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof TransactionCanceledException && error.CancellationReasons?.[0]?.Code === 'ConditionalCheckFailed') return false;
      throw error;
    }
  }

  async findGeneration(projectId: string, requestId: string): Promise<UsageRecord | undefined> {
    const { Items } = await this.client.send(
      new QueryCommand({
        TableName: this.tables.generations,
        KeyConditionExpression: 'generationKey = :key',
        ExpressionAttributeValues: { ':key': generationKey(projectId, requestId) },
        ConsistentRead: true,
      }),
    );
    const records = (Items ?? []).map((item) => usageRecordSchema.parse(item));
    // A reused X-Request-ID has several records: the lookup shows the latest.
    return records.sort((a, b) => a.createdAt.localeCompare(b.createdAt)).at(-1);
  }

  async findStoredResponse(responseId: string): Promise<StoredResponseOwner | undefined> {
    const { Items } = await this.client.send(
      new QueryCommand({
        TableName: this.tables.generations,
        KeyConditionExpression: 'generationKey = :key',
        ExpressionAttributeValues: { ':key': storedResponseKey(responseId) },
        ConsistentRead: true,
      }),
    );
    const owner = (Items ?? []).sort((a, b) => String(a.createdAt).localeCompare(String(b.createdAt))).at(-1);
    if (!owner) return undefined;
    return { projectId: String(owner.projectId), provider: String(owner.provider), model: String(owner.model), requestId: String(owner.requestId) };
  }

  private ownerItem(record: UsageRecord, responseId: string, expiresAt: number): Record<string, unknown> {
    return {
      generationKey: storedResponseKey(responseId),
      recordId: record.recordId,
      projectId: record.projectId,
      provider: record.provider,
      model: record.model,
      requestId: record.requestId,
      createdAt: record.createdAt,
      [GENERATION_TTL_ATTRIBUTE]: expiresAt,
    };
  }
}
