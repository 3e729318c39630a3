import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import { startLocalBackend, type LocalBackend } from '../../../tools/local-host/backend.ts';
import { StoreHeldError } from '../../../tools/local-host/store-held-error.ts';
import { startCommand } from '../../support/run-command.ts';

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

/** Whether a process is still alive (signal 0 checks without signalling). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

afterEach(async () => {
  await Promise.all(backends.splice(0).map((backend) => backend.shutdown()));
  await Promise.all(directories.splice(0).map((directory) => rm(directory, { recursive: true, force: true })));
});

describe('the local host backend process', () => {
  it('serves the embedded store from a process of its own and ends that process on shutdown', async () => {
    const { backend } = await backendIn();
    expect(backend.pid).not.toBe(process.pid);
    expect(alive(backend.pid)).toBe(true);
    expect(await backend.isEmpty()).toBe(true);
    const client = new DynamoDBClient({ endpoint: backend.endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
    expect((await client.send(new ListTablesCommand({}))).TableNames).toEqual(expect.arrayContaining([TABLES.keys, TABLES.projects]));
    client.destroy();

    await backend.shutdown();
    expect(alive(backend.pid)).toBe(false);
    await expect(backend.isEmpty()).rejects.toThrow(/backend process has stopped/);
    await expect(fetch(backend.endpoint)).rejects.toThrow();
  });

  it('ends with its host: killed with SIGKILL, the host leaves no backend behind, and the store opens again at once', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'gateway-backend-'));
    directories.push(directory);
    const storeDirectory = join(directory, 'store');
    // A host of its own (this test process must live on): it starts a backend, prints its pid, and waits.
    const script = `const { startLocalBackend } = await import(${JSON.stringify(new URL('../../../tools/local-host/backend.ts', import.meta.url).href)}); const backend = await startLocalBackend(${JSON.stringify(storeDirectory)}, ${JSON.stringify(TABLES)}); console.log(backend.pid); setInterval(() => {}, 1000);`;
    const host = startCommand(process.execPath, ['--input-type=module', '-e', script], {}, /^\d+$/m);
    try {
      const backendPid = Number(/^(\d+)$/m.exec(await host.started)?.[1]);
      expect(alive(backendPid)).toBe(true);

      host.child.kill('SIGKILL');
      await expect.poll(() => alive(backendPid), { timeout: 5_000, interval: 20 }).toBe(false);
    } finally {
      await host.stop();
    }
    // Its LevelDB lock went with it.
    const { backend } = await backendIn(directory);
    expect(await backend.isEmpty()).toBe(true);
  });

  it('stays up through Ctrl-C (SIGINT to the process group), so that the host can drain its usage through it', async () => {
    const { backend } = await backendIn();
    process.kill(backend.pid, 'SIGINT');
    process.kill(backend.pid, 'SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await backend.isEmpty()).toBe(true);
  });

  it('refuses a store directory another backend holds with a StoreHeldError naming it, so that its opener can wait', async () => {
    const { directory } = await backendIn();
    // LevelDB's lock refuses the second opener; dynalite's throw ends that backend process, not this one.
    const refusal = startLocalBackend(join(directory, 'store'), TABLES);
    await expect(refusal).rejects.toBeInstanceOf(StoreHeldError);
    await expect(refusal).rejects.toThrow(`Another process holds the embedded store in ${join(directory, 'store')}.`);
  });

  it('refuses a usage batch before its writer is started, and keeps serving after closing the store alone', async () => {
    const { backend } = await backendIn();
    await expect(backend.deliver({ Records: [] })).rejects.toThrow('the usage writer was not started');
    await backend.close();
    await expect(fetch(backend.endpoint)).rejects.toThrow();
    // The process still answers: closing the store (an outage in tests) is not a shutdown.
    await expect(backend.deliver({ Records: [] })).rejects.toThrow('the usage writer was not started');
  });
});
