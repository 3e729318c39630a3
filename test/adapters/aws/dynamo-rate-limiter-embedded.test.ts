import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoRateLimiter } from '../../../shared/adapters/aws/dynamo-rate-limiter.ts';
import type { LimitCharge } from '../../../shared/core/ports.ts';
import { startEmbeddedStore, type EmbeddedStore } from '../../../tools/local-host/embedded-store.ts';
import { embeddedStoreDocuments } from '../../../shared/wiring/dynamo-documents.ts';
import type { DynamoDocuments } from '../../../shared/adapters/aws/dynamo-documents.ts';

/** The limiter's behaviour on a real DynamoDB-compatible store: what is admitted, what is counted. */
describe('DynamoRateLimiter against the embedded store', () => {
  let dataDir: string;
  let embedded: EmbeddedStore | undefined;
  let documents: DynamoDocuments;
  let limiter: DynamoRateLimiter;
  let counter = 0;
  const windowEndsAt = Date.now() + 60_000;
  const charge = (limit: number, amount: number, counterKey = `c#${++counter}`): LimitCharge => ({ counterKey, limit, amount, windowEndsAt });
  const countOf = async (counterKey: string) =>
    Number((await documents.get({ TableName: 'test-counters', Key: { counterKey } })).Item?.count ?? 0);

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'dynamo-rate-limiter-'));
    embedded = await startEmbeddedStore(dataDir, { keys: 'test-keys', projects: 'test-projects', counters: 'test-counters' });
    documents = embeddedStoreDocuments(embedded.endpoint);
    limiter = new DynamoRateLimiter(documents, 'test-counters');
  });
  afterAll(async () => {
    await embedded?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('admits charges of several tokens exactly up to the limit, and refuses the one that would pass it', async () => {
    const tokens = charge(100, 30);
    const results = [];
    for (let request = 0; request < 4; request += 1) results.push((await limiter.acquire([{ ...tokens }])).allowed);
    // 30 + 30 + 30 = 90 fit; a fourth 30 would make 120.
    expect(results).toEqual([true, true, true, false]);
    expect(await countOf(tokens.counterKey)).toBe(90);
    // A charge that exactly fills the rest fits.
    expect((await limiter.acquire([{ ...tokens, amount: 10 }])).allowed).toBe(true);
    expect(await countOf(tokens.counterKey)).toBe(100);
  });

  it('gives back every charge it took when a later one is refused, not just the last', async () => {
    const keyRequests = charge(10, 1);
    const projectRequests = charge(10, 1);
    const projectTokens = charge(5, 1);
    await limiter.acquire([{ ...projectTokens, amount: 5 }]);
    const decision = await limiter.acquire([keyRequests, projectRequests, projectTokens]);
    expect(decision).toEqual({ allowed: false, refusedIndex: 2 });
    expect(await countOf(keyRequests.counterKey)).toBe(0);
    expect(await countOf(projectRequests.counterKey)).toBe(0);
    expect(await countOf(projectTokens.counterKey)).toBe(5);
  });

  it('never admits more than the limit however many callers race for the last places', async () => {
    const requests = charge(7, 1);
    const decisions = await Promise.all(Array.from({ length: 30 }, () => limiter.acquire([{ ...requests }])));
    expect(decisions.filter((decision) => decision.allowed)).toHaveLength(7);
    expect(await countOf(requests.counterKey)).toBe(7);
  });
});
