import OpenAI from 'openai';
import { expect } from 'vitest';
import { WINDOW_MS } from '../../shared/core/rate-limits.ts';

export type ApiError = InstanceType<typeof OpenAI.APIError>;

/** The APIError an SDK call was refused with; fails when the call succeeds or fails otherwise. */
export async function apiError(call: Promise<unknown>): Promise<ApiError> {
  const error = await call.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof OpenAI.APIError)) throw new Error(`expected an APIError, got ${String(error)}`);
  return error;
}

/** Checks status, code and that the body was exactly the OpenAI error format {error:{message,type,code,param}}. */
export function expectOpenAiError(error: ApiError, status: number, type: string, code: string): void {
  expect(error.status).toBe(status);
  expect(error.error).toEqual({ message: expect.any(String), type, code, param: null });
}

/**
 * Rate limits count per minute of the wall clock. A test that must stay inside one window waits for the
 * next one when fewer than `neededMs` are left of the current window.
 */
export async function awaitFreshWindow(neededMs = 8_000): Promise<void> {
  const left = WINDOW_MS - (Date.now() % WINDOW_MS);
  if (left < neededMs) await new Promise((resolve) => setTimeout(resolve, left + 50));
}

/** Splits settled SDK calls into successes and API errors (anything else fails the test). */
export function partition<T>(results: PromiseSettledResult<T>[]): { admitted: T[]; refused: ApiError[] } {
  const admitted: T[] = [];
  const refused: ApiError[] = [];
  for (const result of results) {
    if (result.status === 'fulfilled') admitted.push(result.value);
    else if (result.reason instanceof OpenAI.APIError) refused.push(result.reason);
    else throw result.reason;
  }
  return { admitted, refused };
}
