import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryLocalUsage } from '../../tools/cli/local-usage-query.ts';
import { startFakeOpenAiUpstream, type FakeUpstream } from '../support/fake-openai-upstream.ts';
import { processGroupGone, runCommand, startCommand } from '../support/run-command.ts';

/**
 * `kill -9` right after the gateway answered: every record it handed over is still applied after a
 * restart on the same data directory, none twice, and a stream the crash cut off is metered too, as is a
 * request still waiting for its provider's first byte (its balance reservation settled).
 */
let dataDir: string;
/** A provider that takes requests and never answers them. */
let silent: FakeUpstream;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'gateway-crash-'));
  silent = await startFakeOpenAiUpstream();
  silent.answerWith(() => undefined);
});
afterAll(async () => {
  await silent?.close();
  await rm(dataDir, { recursive: true, force: true });
});

// The mock's words 1 s apart: the streamed answer (~180 words) lasts minutes, so the crash cuts it whatever
// the 200 other requests (not streamed) take.
const env = () => ({ PORT: '0', GATEWAY_DATA_DIR: dataDir, GATEWAY_MOCK_WORD_DELAY_MS: '1000', GATEWAY_QUIET: '1' });

/** SIGKILL to the whole group (npm and node), then waits until none of it is left. */
async function kill(pid: number | undefined): Promise<void> {
  if (pid === undefined) return;
  process.kill(-pid, 'SIGKILL');
  await processGroupGone(pid);
}

/** The ledger's count of the project's requests: each usage record applied once adds one. */
async function requestCountOf(projectId: string): Promise<number> {
  const shown = await runCommand('npm', ['run', '--silent', 'admin', '--', 'project', 'get', projectId], { GATEWAY_DATA_DIR: dataDir, POWERTOOLS_LOG_LEVEL: 'SILENT' });
  return (JSON.parse(shown.stdout) as { request_count: number }).request_count;
}

describe('a crash of the local host', () => {
  it('loses no usage record it handed over, writes none twice, and meters a stream it cut off', { timeout: 90_000 }, async () => {
    const first = startCommand('npm', ['start'], env(), /Try it:[\s\S]*-d '/, 40_000);
    const output = await first.started;
    const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1] as string;
    const key = /^\s+(gw\.[0-9A-Za-z]{43})$/m.exec(output)?.[1] as string;
    const ask = (id: string, stream: boolean) =>
      fetch(`${url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'x-request-id': id },
        body: JSON.stringify({ model: 'mock/echo', stream, messages: [{ role: 'user', content: stream ? 'a long answer, word after word, '.repeat(30) : 'hi' }] }),
      });

    // A prepaid project with a provider that takes the request and never answers: the crash comes while the
    // gateway waits for its head. Its record, and the end of its reservation, must survive the crash too.
    const admin = (...args: string[]) => runCommand('npm', ['run', '--silent', 'admin', '--', ...args], { GATEWAY_DATA_DIR: dataDir, POWERTOOLS_LOG_LEVEL: 'SILENT' });
    await admin('provider', 'set', 'demo', 'openai', '--api-key', 'sk-crash-test-0123456789', '--base-url', silent.baseUrl);
    await admin('model', 'allow', 'demo', 'openai/gpt-4o-mini', '--input-micros-per-1k', '150', '--output-micros-per-1k', '600');
    await admin('project', 'update', 'demo', '--balance-usd', '1');
    void fetch(`${url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'x-request-id': 'crash-waiting' },
      body: JSON.stringify({ model: 'openai/gpt-4o-mini', max_tokens: 1000, messages: [{ role: 'user', content: 'Take your time.' }] }),
    }).catch(() => undefined);
    await expect.poll(() => silent.received.length, { timeout: 10_000, interval: 50 }).toBe(1);

    const streaming = await ask('crash-stream', true);
    await (streaming.body as ReadableStream<Uint8Array>).getReader().read();
    const answers = await Promise.all(Array.from({ length: 200 }, (_, index) => ask(`crash-${index}`, false)));
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    await kill(first.child.pid);

    const second = startCommand('npm', ['start'], env(), /listening on/, 40_000);
    try {
      await second.started;
      const requests = () => queryLocalUsage(dataDir, "SELECT COUNT(DISTINCT id) AS n FROM usage_records WHERE id LIKE 'crash-%'");
      await expect.poll(async () => Number((await requests())[0]?.n), { timeout: 30_000, interval: 250 }).toBe(202);
      // Applied once each: a record redelivered after the crash may sit in a second usage file (the queries
      // count it once), but the ledger counts it once.
      await expect.poll(() => requestCountOf('demo'), { timeout: 10_000, interval: 250 }).toBe(202);
      const cut = await queryLocalUsage(dataDir, "SELECT id, status, error_code FROM usage_records WHERE id IN ('crash-stream', 'crash-waiting') ORDER BY id");
      expect(cut).toEqual([
        { id: 'crash-stream', status: 'failed', error_code: 'gateway_interrupted' },
        { id: 'crash-waiting', status: 'failed', error_code: 'gateway_interrupted' },
      ]);
      // Every reservation settled: what is left and what was spent add up to the balance set, none held.
      const project = JSON.parse((await runCommand('npm', ['run', '--silent', 'admin', '--', 'project', 'get', 'demo'], { GATEWAY_DATA_DIR: dataDir, POWERTOOLS_LOG_LEVEL: 'SILENT' })).stdout) as { balance_usd: string; spent_usd: string };
      expect(Math.round((Number(project.balance_usd) + Number(project.spent_usd)) * 1e9)).toBe(1e9);
    } finally {
      await second.stop();
    }
  });
});
