import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { cancelledByConflictOnly, conflictBackoffMs } from '../../../shared/adapters/aws/transaction-conflicts.ts';

const cancelled = (...codes: string[]) => new TransactionCanceledException({ message: 'cancelled', $metadata: {}, CancellationReasons: codes.map((Code) => ({ Code })) });

describe('transaction conflicts', () => {
  it('waits a random time that doubles with each try: up to 25, 50, 100 and 200 ms', () => {
    expect([1, 2, 3, 4].map((attempt) => conflictBackoffMs(attempt, () => 1))).toEqual([25, 50, 100, 200]);
    expect(conflictBackoffMs(3, () => 0)).toBe(0);
  });

  it('tells a transaction cancelled only by conflicts from one cancelled for its own items', () => {
    expect(cancelledByConflictOnly(cancelled('None', 'TransactionConflict'))).toBe(true);
    expect(cancelledByConflictOnly(cancelled('ConditionalCheckFailed', 'TransactionConflict'))).toBe(false);
    expect(cancelledByConflictOnly(cancelled('None', 'None'))).toBe(false);
    expect(cancelledByConflictOnly(new Error('TransactionConflict'))).toBe(false);
  });
});
