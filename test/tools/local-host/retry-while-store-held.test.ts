import { describe, expect, it } from 'vitest';
import { retryWhileStoreHeld } from '../../../tools/local-host/retry-while-store-held.ts';
import { StoreHeldError } from '../../../tools/local-host/store-held-error.ts';

/** An attempt that finds the store held `times` times, then opens it. */
function heldFor(times: number) {
  let attempts = 0;
  const attempt = async () => {
    attempts += 1;
    if (attempts <= times) throw new StoreHeldError('/data/dynamodb');
    return 'opened';
  };
  return { attempt, attempts: () => attempts };
}

describe('retryWhileStoreHeld', () => {
  it('tries again while another process holds the store, says so once, and returns the first success', async () => {
    const { attempt, attempts } = heldFor(2);
    const told: string[] = [];

    await expect(retryWhileStoreHeld(attempt, { onHeld: (error) => told.push(error.directory) })).resolves.toBe('opened');
    expect(attempts()).toBe(3);
    expect(told).toEqual(['/data/dynamodb']);
  });

  it('lets the StoreHeldError through once the wait is over (a wait of 0 tries once)', async () => {
    const { attempt, attempts } = heldFor(Infinity);

    await expect(retryWhileStoreHeld(attempt, { waitMs: 0 })).rejects.toBeInstanceOf(StoreHeldError);
    expect(attempts()).toBe(1);
  });

  it('lets any other failure through at once', async () => {
    let attempts = 0;
    const attempt = async () => {
      attempts += 1;
      throw new Error('the store directory is not writable');
    };

    await expect(retryWhileStoreHeld(attempt)).rejects.toThrow('the store directory is not writable');
    expect(attempts).toBe(1);
  });
});
