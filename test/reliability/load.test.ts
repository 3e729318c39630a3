import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryLocalUsage } from '../../tools/cli/local-usage-query.ts';
import { createProjectWithKey, startTestGateway, type TestGateway } from '../support/test-gateway.ts';

/**
 * Load on the local host with the offline mock provider (so the figure is the gateway's own): 500 streams
 * at once, then a bounded soak of rounds of concurrent requests. No errors, and every request is metered
 * exactly once, as counted in the usage files.
 */
let gateway: TestGateway;
let key: string;

beforeAll(async () => {
  gateway = await startTestGateway({ GATEWAY_MOCK_WORD_DELAY_MS: '5' });
  key = await createProjectWithKey(gateway, { projectId: 'load', baseUrl: 'mock://offline/v1', provider: 'mock', models: [{ slug: 'mock/echo' }] });
});

afterAll(async () => {
  await gateway.close();
});

async function stream(id: string): Promise<string> {
  const response = await fetch(`${gateway.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'x-request-id': id },
    body: JSON.stringify({ model: 'mock/echo', stream: true, messages: [{ role: 'user', content: 'one two three four five' }] }),
  });
  if (response.status !== 200) throw new Error(`HTTP ${response.status}`);
  return response.text();
}

async function meteredOnce(prefix: string): Promise<{ requests: number; maxCopies: number }> {
  await gateway.host.drainUsage();
  const [row] = await queryLocalUsage(
    gateway.host.dataDir,
    `SELECT COUNT(*) AS requests, MAX(copies) AS max_copies FROM (SELECT id, COUNT(*) AS copies FROM usage_records WHERE id LIKE '${prefix}%' GROUP BY id)`,
  );
  return { requests: Number(row?.requests), maxCopies: Number(row?.max_copies) };
}

describe('load on the local host', () => {
  it('serves 500 streams at once without an error, each metered exactly once', { timeout: 120_000 }, async () => {
    const bodies = await Promise.all(Array.from({ length: 500 }, (_, index) => stream(`burst-${index}`)));
    expect(bodies.every((body) => body.trimEnd().endsWith('data: [DONE]'))).toBe(true);
    expect(await meteredOnce('burst-')).toEqual({ requests: 500, maxCopies: 1 });
  });

  it('soaks: 10 rounds of 100 concurrent streams, every one answered and metered once', { timeout: 120_000 }, async () => {
    for (let round = 0; round < 10; round += 1) {
      await Promise.all(Array.from({ length: 100 }, (_, index) => stream(`soak-${round}-${index}`)));
    }
    expect(await meteredOnce('soak-')).toEqual({ requests: 1_000, maxCopies: 1 });
  });
});
