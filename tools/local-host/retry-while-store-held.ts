import { setTimeout as sleep } from 'node:timers/promises';
import { StoreHeldError } from './store-held-error.ts';

/**
 * How long a start or an admin command waits for another process to let go of the store: longer than a
 * gateway takes to stop (SHUTDOWN_GRACE_MS for its requests, then its usage and its backend).
 */
export const STORE_WAIT_MS = 30_000;
const RETRY_EVERY_MS = 200;

export interface StoreWait {
  /** 0 tries once. */
  waitMs?: number;
  /** Told once, at the first refusal, so that the person knows why nothing happens yet. */
  onHeld?: (error: StoreHeldError) => void;
}

/**
 * Runs `attempt` again while it fails with StoreHeldError, for up to `waitMs`, then lets that error through.
 * Another process holds the store only for a while unless it is a running gateway, and an attempt that
 * checks for one first (its host file) then goes through it.
 */
export async function retryWhileStoreHeld<T>(attempt: () => Promise<T>, { waitMs = STORE_WAIT_MS, onHeld }: StoreWait = {}): Promise<T> {
  const deadline = Date.now() + waitMs;
  for (let told = false; ; told = true) {
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof StoreHeldError) || Date.now() >= deadline) throw error;
      if (!told) onHeld?.(error);
    }
    await sleep(RETRY_EVERY_MS);
  }
}
