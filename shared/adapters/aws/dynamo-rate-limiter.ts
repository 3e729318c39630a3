import type { LimitCharge, LimitDecision, RateLimiter } from '../../core/ports.ts';
import { isAwsError } from '../../transport/aws-json-service.ts';
import type { DynamoDocuments } from './dynamo-documents.ts';

/** Counters outlive their window a little, then DynamoDB's TTL removes them. */
const TTL_GRACE_SECONDS = 120;

/**
 * Fixed-window counters in DynamoDB, shared by every Lambda instance. Each charge is one conditional
 * atomic ADD (`count <= limit - amount`), so concurrent callers can never push a window past its limit.
 * Charges are taken in order; when one is refused, those already taken are given back, which may refuse a
 * concurrent caller at the boundary but never admits too many.
 */
export class DynamoRateLimiter implements RateLimiter {
  private readonly client: DynamoDocuments;
  private readonly tableName: string;

  constructor(client: DynamoDocuments, tableName: string) {
    this.client = client;
    this.tableName = tableName;
  }

  async acquire(charges: readonly LimitCharge[]): Promise<LimitDecision> {
    const counts: number[] = [];
    for (const [index, charge] of charges.entries()) {
      const count = charge.amount > charge.limit ? undefined : await this.take(charge);
      if (count === undefined) {
        await Promise.all(charges.slice(0, index).map((taken) => this.adjust(taken.counterKey, -taken.amount, taken.windowEndsAt)));
        return { allowed: false, refusedIndex: index };
      }
      counts.push(count);
    }
    return { allowed: true, counts };
  }

  async adjust(counterKey: string, amount: number, windowEndsAt: number): Promise<void> {
    await this.client.update({
      TableName: this.tableName,
      Key: { counterKey },
      UpdateExpression: 'ADD #count :amount SET expiresAt = :expiresAt',
      ExpressionAttributeNames: { '#count': 'count' },
      ExpressionAttributeValues: { ':amount': amount, ':expiresAt': expiry(windowEndsAt) },
    });
  }

  /** The window's new count, or undefined when the charge would pass the limit. */
  private async take(charge: LimitCharge): Promise<number | undefined> {
    try {
      const { Attributes } = await this.client.update({
        TableName: this.tableName,
        Key: { counterKey: charge.counterKey },
        UpdateExpression: 'ADD #count :amount SET expiresAt = :expiresAt',
        ConditionExpression: 'attribute_not_exists(#count) OR #count <= :ceiling',
        ExpressionAttributeNames: { '#count': 'count' },
        ExpressionAttributeValues: { ':amount': charge.amount, ':ceiling': charge.limit - charge.amount, ':expiresAt': expiry(charge.windowEndsAt) },
        ReturnValues: 'UPDATED_NEW',
      });
      return Number(Attributes?.count ?? charge.amount);
    } catch (error) {
      if (isAwsError(error, 'ConditionalCheckFailedException')) return undefined;
      throw error;
    }
  }
}

function expiry(windowEndsAt: number): number {
  return Math.ceil(windowEndsAt / 1000) + TTL_GRACE_SECONDS;
}
