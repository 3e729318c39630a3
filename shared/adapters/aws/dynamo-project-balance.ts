import type { UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import type { ProjectBalanceStore, ProjectUsageTotals } from '../../core/ports.ts';
import { isAwsError } from '../../transport/aws-json-service.ts';
import type { DynamoDocuments } from './dynamo-documents.ts';
import { isWriteConflict, retryOnConflict } from './transaction-conflicts.ts';

/**
 * An amount of the usage item. Spend only grows and a balance may be set up to a billion USD, so both pass
 * 2^53 nano-USD (about 9 million USD): DynamoDB's marshaller (@aws-sdk/util-dynamodb) reads such a number
 * as an exact BigInt (and a smaller one as an exact number), and both are read as BigInt.
 */
const nanos = z.union([z.number().int(), z.bigint()]).transform((value) => BigInt(value));

const usageItemSchema = z.object({
  spentNanos: nanos.optional(),
  requestCount: z.number().int().optional(),
  availableNanos: nanos.optional(),
  reservedNanos: nanos.optional(),
});

/**
 * The project's `usage` item in the projects table. `availableNanos` is the prepaid balance net of
 * spend and of reservations in flight: admission takes a request's worst case from it with a
 * conditional atomic update (so concurrent requests cannot overspend), and the writer's exactly-once
 * transaction gives back the difference to the real cost. `reservedNanos` is what the reservations in
 * flight hold, moved with them in the same updates, so that setting a balance sets it net of them: the
 * settlements that follow give back only what they took from the balance set.
 */
export class DynamoProjectBalance implements ProjectBalanceStore {
  private readonly client: DynamoDocuments;
  private readonly tableName: string;

  constructor(client: DynamoDocuments, tableName: string) {
    this.client = client;
    this.tableName = tableName;
  }

  async loadUsageTotals(projectId: string): Promise<ProjectUsageTotals> {
    const { Item } = await this.client.get({ TableName: this.tableName, Key: this.key(projectId), ConsistentRead: true });
    const item = usageItemSchema.parse(Item ?? {});
    return {
      spentNanos: item.spentNanos ?? 0n,
      requestCount: item.requestCount ?? 0,
      ...(item.availableNanos !== undefined ? { availableNanos: item.availableNanos } : {}),
      ...(item.reservedNanos !== undefined ? { reservedNanos: item.reservedNanos } : {}),
    };
  }

  async setBalance(projectId: string, balanceNanos: bigint | undefined): Promise<void> {
    await this.write(
      balanceNanos === undefined
        ? { TableName: this.tableName, Key: this.key(projectId), UpdateExpression: 'REMOVE availableNanos' }
        : {
            TableName: this.tableName,
            Key: this.key(projectId),
            UpdateExpression: 'SET availableNanos = :balance - if_not_exists(reservedNanos, :none)',
            ExpressionAttributeValues: { ':balance': balanceNanos, ':none': 0 },
          },
    );
  }

  async addCredit(projectId: string, nanos: bigint): Promise<void> {
    await this.write({
      TableName: this.tableName,
      Key: this.key(projectId),
      UpdateExpression: 'ADD availableNanos :amount',
      ExpressionAttributeValues: { ':amount': nanos },
    });
  }

  async reserve(projectId: string, nanos: number): Promise<boolean> {
    try {
      await this.write({
        TableName: this.tableName,
        Key: this.key(projectId),
        UpdateExpression: 'ADD availableNanos :taken, reservedNanos :held',
        ConditionExpression: 'availableNanos >= :needed',
        ExpressionAttributeValues: { ':taken': -nanos, ':held': nanos, ':needed': nanos },
      });
      return true;
    } catch (error) {
      if (isAwsError(error, 'ConditionalCheckFailedException')) return false;
      throw error;
    }
  }

  async release(projectId: string, nanos: number): Promise<void> {
    if (nanos <= 0) return;
    await this.write({
      TableName: this.tableName,
      Key: this.key(projectId),
      UpdateExpression: 'ADD availableNanos :amount, reservedNanos :released',
      ExpressionAttributeValues: { ':amount': nanos, ':released': -nanos },
    });
  }

  /** An update of the usage item, which the writer's transactions also write: tried again while one holds it. */
  private async write(update: UpdateCommandInput): Promise<void> {
    await retryOnConflict(() => this.client.update(update), isWriteConflict);
  }

  private key(projectId: string) {
    return { projectId, itemKey: 'usage' };
  }
}
