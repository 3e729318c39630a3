import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import { startLocalBackend, type LocalBackend } from '../../../tools/local-host/backend.ts';

const TABLES = { keys: 'test-keys', projects: 'test-projects' };
const directories: string[] = [];
const backends: LocalBackend[] = [];

async function backendIn(directory?: string): Promise<{ backend: LocalBackend; directory: string }> {
  const where = directory ?? (await mkdtemp(join(tmpdir(), 'gateway-backend-')));
  if (!directory) directories.push(where);
  const backend = await startLocalBackend(join(where, 'store'), TABLES);
  backends.push(backend);
  return { backend, directory: where };
}

/** The names of this process's threads (Linux), where the backend thread shows as `gateway-backend`. */
async function threadNames(): Promise<string[]> {
  const tasks = await readdir('/proc/self/task').catch(() => []);
  return Promise.all(tasks.map(async (tid) => (await readFile(`/proc/self/task/${tid}/comm`, 'utf8').catch(() => '')).trim()));
}

afterEach(async () => {
  await Promise.all(backends.splice(0).map((backend) => backend.shutdown()));
  await Promise.all(directories.splice(0).map((directory) => rm(directory, { recursive: true, force: true })));
});

describe('the local host backend thread', () => {
  it('serves the embedded store from its own thread and ends that thread on shutdown', async () => {
    const { backend } = await backendIn();
    expect(await backend.isEmpty()).toBe(true);
    const client = new DynamoDBClient({ endpoint: backend.endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
    expect((await client.send(new ListTablesCommand({}))).TableNames).toEqual(expect.arrayContaining([TABLES.keys, TABLES.projects]));
    client.destroy();
    if (process.platform === 'linux') expect(await threadNames()).toContain('gateway-backend');

    await backend.shutdown();
    await expect(backend.isEmpty()).rejects.toThrow(/backend thread has stopped/);
    await expect(fetch(backend.endpoint)).rejects.toThrow();
  });

  it('refuses to open a store directory another backend holds', async () => {
    const { directory } = await backendIn();
    // LevelDB's lock refuses the second opener; the local host words it for the person (local-environment.ts).
    await expect(startLocalBackend(join(directory, 'store'), TABLES)).rejects.toThrow(/not open|lock/i);
  });

  it('refuses a usage batch before its writer is started, and keeps serving after closing the store alone', async () => {
    const { backend } = await backendIn();
    await expect(backend.deliver({ Records: [] })).rejects.toThrow('the usage writer was not started');
    await backend.close();
    await expect(fetch(backend.endpoint)).rejects.toThrow();
    // The thread still answers: closing the store (an outage in tests) is not a shutdown.
    await expect(backend.deliver({ Records: [] })).rejects.toThrow('the usage writer was not started');
  });
});
