import { completingRecordId, generationView } from '../../core/generation-view.ts';
import type { GenerationLookup, StoredResponseOwner } from '../../core/ports.ts';
import { usageRecordSchema, type UsageRecord } from '../../core/usage-record.ts';
import { answerAliasKey, generationKey, storedResponseKey } from './generation-keys.ts';
import { queryAll, type DynamoDocuments } from './dynamo-documents.ts';

export interface UsageLedgerTables {
  generations: string;
  projects: string;
  /** How long generation records stay queryable through the API (the usage files keep them for good). */
  retentionDays: number;
}

/**
 * Reads what the usage ledger (dynamo-usage-ledger.ts) writes to the generation table: a project's
 * generation by request or answer id, and the owner of a stored response id. Every read is consistent: a
 * generation is looked up right after its answer.
 */
export class DynamoGenerationLookup implements GenerationLookup {
  protected readonly client: DynamoDocuments;
  protected readonly tables: UsageLedgerTables;

  constructor(client: DynamoDocuments, tables: UsageLedgerTables) {
    this.client = client;
    this.tables = tables;
  }

  /**
   * A project's generation for an id (generation-view.ts): a request id, else the id of an answer (through
   * its alias). A request id wins over an answer id that happens to be the same; records written before
   * aliases are found by their request id only. An aliased video creation is read with its finished record.
   */
  async findGeneration(projectId: string, id: string): Promise<UsageRecord | undefined> {
    const byRequest = await this.records(generationKey(projectId, id));
    if (byRequest.length > 0) return generationView(byRequest);
    const aliases = await this.queryPartition(answerAliasKey(projectId, id));
    const alias = aliases.sort((a, b) => String(a.createdAt).localeCompare(String(b.createdAt))).at(-1);
    if (!alias) return undefined;
    const key = generationKey(projectId, String(alias.requestId));
    const records = await this.records(key, String(alias.recordId));
    const completingId = records[0] && completingRecordId(records[0]);
    if (completingId) records.push(...(await this.records(key, completingId)));
    return generationView(records, String(alias.recordId));
  }

  /** The records of a partition (a reused X-Request-ID has several), or the one with `recordId`. */
  private async records(key: string, recordId?: string): Promise<UsageRecord[]> {
    return (await this.queryPartition(key, recordId)).map((item) => usageRecordSchema.parse(item));
  }

  /** Every item of a partition, page after page: a request id reused often enough fills more than a page (1 MB). */
  private async queryPartition(key: string, recordId?: string): Promise<Record<string, unknown>[]> {
    return queryAll(this.client, {
      TableName: this.tables.generations,
      KeyConditionExpression: recordId === undefined ? 'generationKey = :key' : 'generationKey = :key AND recordId = :recordId',
      ExpressionAttributeValues: { ':key': key, ...(recordId === undefined ? {} : { ':recordId': recordId }) },
      ConsistentRead: true,
    });
  }

  /**
   * The owner of a response id: the oldest owner item, so that an item written before owner puts became
   * conditional (keyed by its record id, several per id) still wins over a later claim by another project.
   */
  async findStoredResponse(responseId: string): Promise<StoredResponseOwner | undefined> {
    const owners = await this.queryPartition(storedResponseKey(responseId));
    const owner = owners.sort((a, b) => String(a.createdAt).localeCompare(String(b.createdAt))).at(0);
    if (!owner) return undefined;
    return { projectId: String(owner.projectId), provider: String(owner.provider), model: String(owner.model), requestId: String(owner.requestId) };
  }
}
