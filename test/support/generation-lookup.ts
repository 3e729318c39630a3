import { expect } from 'vitest';
import type { TestGateway } from './test-gateway.ts';

/** A generation record as `GET /v1/generation` answers it (the fields the tests read). */
export interface GenerationView {
  id: string;
  model: string;
  provider: string;
  endpoint: string;
  status: string;
  http_status: number;
  tokens_prompt: number;
  tokens_completion: number;
  total_cost: number;
  estimated: boolean;
  streamed: boolean;
  error_code: string | null;
  upstream_id: string | null;
  billed_units: Record<string, number> | null;
}

/** Waits for the writer to store a request's record, as a client would poll, and returns it. */
export async function generationOf(gateway: TestGateway, key: string, id: string): Promise<GenerationView> {
  const lookup = () => fetch(`${gateway.url}/v1/generation?id=${encodeURIComponent(id)}`, { headers: { authorization: `Bearer ${key}` } });
  await expect.poll(async () => (await lookup()).status, { timeout: 5_000, interval: 50 }).toBe(200);
  return (await (await lookup()).json()) as GenerationView;
}
