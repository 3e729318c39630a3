import { isAwsError } from '../../transport/aws-json-service.ts';
import { cancellationReasons } from './dynamo-documents.ts';

/**
 * DynamoDB refuses a write to an item another transaction is writing (TransactionConflictException for a
 * single write, a TransactionConflict cancellation reason for a transaction) and the SDK does not retry
 * either. The project's `usage` item is in every writer transaction that meters the project and in every
 * prepaid reservation, so on a busy project they meet; DynamoDB's advice is to try again after a short,
 * random wait. A conflict is transient: the other transaction ends within milliseconds.
 */
export const TRANSACTION_CONFLICT_ATTEMPTS = 5;

/** A wait before try `attempt` (1-based): up to 25, 50, 100, 200 ms, jittered so that the contenders part. */
export function conflictBackoffMs(attempt: number, random: () => number = Math.random): number {
  return Math.round(random() * 25 * 2 ** Math.max(0, attempt - 1));
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Whether a single write met another transaction on its item. */
export function isWriteConflict(error: unknown): boolean {
  return isAwsError(error, 'TransactionConflictException');
}

/** Whether a cancelled transaction failed only for conflicts with other writes (the rest of it was fine). */
export function cancelledByConflictOnly(error: unknown): boolean {
  const codes = cancellationReasons(error).map((reason) => reason.Code ?? 'None');
  return codes.includes('TransactionConflict') && codes.every((code) => code === 'TransactionConflict' || code === 'None');
}

/**
 * Runs a write (`isWriteConflict`) or a transaction (`cancelledByConflictOnly`) again while it conflicts
 * with another transaction, after a random wait, a few times; then the conflict is passed on.
 */
export async function retryOnConflict<T>(write: () => Promise<T>, conflicted: (error: unknown) => boolean): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await write();
    } catch (error) {
      if (!conflicted(error) || attempt >= TRANSACTION_CONFLICT_ATTEMPTS) throw error;
      await sleep(conflictBackoffMs(attempt));
    }
  }
}
