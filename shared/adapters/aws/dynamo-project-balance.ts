import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { z } from 'zod';
import type { ProjectBalanceStore, ProjectUsageTotals } from '../../core/ports.ts';

const usageItemSchema = z.object({
  spentNanos: z.number().int().optional(),
  requestCount: z.number().int().optional(),
  creditNanos: z.number().int().optional(),
});

const MAX_ATTEMPTS = 5;

/**
 * The project's `usage` item in the projects table: the writer ADDs spend there in its exactly-once
 * transaction; the admin sets or adds credit. Setting a balance reads the spend and writes the credit
 * on condition that the spend has not moved meanwhile, so a concurrent settlement is never lost.
 */
export class DynamoProjectBalance implements ProjectBalanceStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async loadUsageTotals(projectId: string): Promise<ProjectUsageTotals> {
    const { Item } = await this.client.send(
      new GetCommand({ TableName: this.tableName, Key: { projectId, itemKey: 'usage' }, ConsistentRead: true }),
    );
    const item = usageItemSchema.parse(Item ?? {});
    return {
      spentNanos: item.spentNanos ?? 0,
      requestCount: item.requestCount ?? 0,
      ...(item.creditNanos !== undefined ? { creditNanos: item.creditNanos } : {}),
    };
  }

  async setBalance(projectId: string, balanceNanos: number | undefined): Promise<void> {
    const Key = { projectId, itemKey: 'usage' };
    if (balanceNanos === undefined) {
      await this.client.send(new UpdateCommand({ TableName: this.tableName, Key, UpdateExpression: 'REMOVE creditNanos' }));
      return;
    }
    for (let attempt = 1; ; attempt++) {
      const { spentNanos } = await this.loadUsageTotals(projectId);
      try {
        await this.client.send(
          new UpdateCommand({
            TableName: this.tableName,
            Key,
            UpdateExpression: 'SET creditNanos = :credit',
            ConditionExpression: spentNanos === 0 ? 'attribute_not_exists(spentNanos) OR spentNanos = :zero' : 'spentNanos = :spent',
            ExpressionAttributeValues: { ':credit': spentNanos + balanceNanos, ...(spentNanos === 0 ? { ':zero': 0 } : { ':spent': spentNanos }) },
          }),
        );
        return;
      } catch (error) {
        if (!(error instanceof ConditionalCheckFailedException) || attempt >= MAX_ATTEMPTS) throw error;
      }
    }
  }

  async addCredit(projectId: string, nanos: number): Promise<void> {
    const totals = await this.loadUsageTotals(projectId);
    if (totals.creditNanos === undefined) {
      // A postpaid project becomes prepaid with this amount as its balance.
      await this.setBalance(projectId, nanos);
      return;
    }
    await this.client.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: { projectId, itemKey: 'usage' },
        UpdateExpression: 'ADD creditNanos :amount',
        ConditionExpression: 'attribute_exists(creditNanos)',
        ExpressionAttributeValues: { ':amount': nanos },
      }),
    );
  }
}
