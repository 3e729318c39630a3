import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AdminResult } from '../../shared/admin/admin-command.ts';
import { queryLocalUsage } from '../../tools/cli/local-usage-query.ts';
import { startLocalHost, type LocalHost } from '../../tools/local-host/local-host.ts';

/**
 * Ctrl-C on `npm start` (host.close): the requests in flight are answered and metered in full when they end
 * within the grace period; one that does not is cut and still metered, as interrupted, on the next start.
 */
const directories: string[] = [];
afterEach(async () => {
  for (const directory of directories.splice(0)) await rm(directory, { recursive: true, force: true });
});

async function startHost(dataDir: string): Promise<LocalHost> {
  // 20 ms between the mock's words: a 40-word answer streams for most of a second.
  return startLocalHost({ port: 0, dataDir, env: { GATEWAY_MOCK_WORD_DELAY_MS: '20', POWERTOOLS_LOG_LEVEL: 'SILENT' } });
}

async function projectKey(host: LocalHost): Promise<string> {
  const admin = async (event: Record<string, unknown>) => {
    const answer = (await host.invokeAdmin(event)) as AdminResult;
    if (!answer.ok) throw new Error(answer.error.message);
    return answer.result as Record<string, unknown>;
  };
  await admin({ command: 'project.create', projectId: 'stopping' });
  await admin({ command: 'provider.set', projectId: 'stopping', provider: 'mock' });
  await admin({ command: 'model.allow', projectId: 'stopping', slug: 'mock/echo', inputMicrosPer1k: 100, outputMicrosPer1k: 100 });
  return String((await admin({ command: 'key.create', projectId: 'stopping' })).key);
}

async function startStream(host: LocalHost, key: string, requestId: string, words: number): Promise<ReadableStreamDefaultReader<Uint8Array>> {
  const response = await fetch(`${host.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'x-request-id': requestId },
    body: JSON.stringify({ model: 'mock/echo', stream: true, messages: [{ role: 'user', content: 'word '.repeat(words) }] }),
  });
  expect(response.status).toBe(200);
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  await reader.read(); // the stream has begun
  return reader;
}

async function readToEnd(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<string> {
  const decoder = new TextDecoder();
  let text = '';
  try {
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) text += decoder.decode(chunk.value, { stream: true });
  } catch {
    // cut off by the stop
  }
  return text;
}

async function usageOf(dataDir: string, requestId: string) {
  const [row] = await queryLocalUsage(dataDir, 'SELECT status, error_code, tokens_completion FROM usage_records WHERE id = $id', { id: requestId });
  return row;
}

describe('stopping the local host (Ctrl-C)', () => {
  it('lets a stream in flight finish, then meters it as completed with its real tokens', { timeout: 30_000 }, async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'gateway-stop-'));
    directories.push(dataDir);
    const host = await startHost(dataDir);
    const key = await projectKey(host);
    const reader = await startStream(host, key, 'stop-finishes', 40);
    expect(host.requestsInFlight()).toBe(1);

    const [rest, closed] = await Promise.all([readToEnd(reader), host.close()]);

    expect(rest).toContain('data: [DONE]');
    expect(closed).toEqual({ cutOff: 0 });
    expect(await usageOf(dataDir, 'stop-finishes')).toMatchObject({ status: 'completed', error_code: null });
    expect(Number((await usageOf(dataDir, 'stop-finishes'))?.tokens_completion)).toBeGreaterThan(40);
  });

  it('cuts a stream that outlasts the grace period, and meters it as interrupted on the next start', { timeout: 60_000 }, async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'gateway-stop-'));
    directories.push(dataDir);
    const host = await startHost(dataDir);
    const key = await projectKey(host);
    const reader = await startStream(host, key, 'stop-cut', 2_000);

    const stopping = Date.now();
    const [, closed] = await Promise.all([readToEnd(reader), host.close({ graceMs: 200 })]);
    expect(Date.now() - stopping).toBeLessThan(10_000);
    // What npm start's last line says: "Stopped: 1 request(s) still running were cut off; …".
    expect(closed).toEqual({ cutOff: 1 });

    const again = await startHost(dataDir);
    try {
      await again.drainUsage();
      expect(await usageOf(dataDir, 'stop-cut')).toMatchObject({ status: 'failed', error_code: 'gateway_interrupted' });
    } finally {
      await again.close();
    }
  });

  it('stops at once when no request is in flight', { timeout: 30_000 }, async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'gateway-stop-'));
    directories.push(dataDir);
    const host = await startHost(dataDir);
    expect(host.requestsInFlight()).toBe(0);
    const stopping = Date.now();
    await host.close();
    expect(Date.now() - stopping).toBeLessThan(5_000);
  });
});
