import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startLocalBackend } from '../../../tools/local-host/backend.ts';
import { LOCAL_TABLES } from '../../../tools/local-host/local-environment.ts';
import { LocalHostError, startLocalHost } from '../../../tools/local-host/local-host.ts';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A data directory whose store an admin command holds (in a backend process, as the CLI opens it). */
async function heldDataDirectory() {
  const dataDir = await mkdtemp(join(tmpdir(), 'gateway-host-held-'));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  const holder = await startLocalBackend(join(dataDir, 'dynamodb'), LOCAL_TABLES);
  cleanups.push(() => holder.shutdown());
  return { dataDir, holder };
}

const env = { POWERTOOLS_LOG_LEVEL: 'SILENT' };

describe('startLocalHost on a store another process holds', () => {
  it('waits for the other process to let go, says so, then starts on the store', async () => {
    const { dataDir, holder } = await heldDataDirectory();
    let report!: (line: string) => void;
    const reported = new Promise<string>((resolve) => (report = resolve));

    const starting = startLocalHost({ port: 0, dataDir, env, report });
    expect(await reported).toBe(
      `Another process holds the store in ${dataDir} (an admin command, or a gateway starting or stopping): waiting up to 30 s for it.`,
    );
    await holder.shutdown();
    const host = await starting;
    cleanups.push(async () => void (await host.close()));

    expect(await host.invokeAdmin({ command: 'project.list' })).toEqual({ ok: true, result: { projects: [] } });
  });

  it('gives up in one line once the wait is over', async () => {
    const { dataDir } = await heldDataDirectory();

    const refusal = startLocalHost({ port: 0, dataDir, env, storeWaitMs: 0 });
    await expect(refusal).rejects.toBeInstanceOf(LocalHostError);
    await expect(refusal).rejects.toThrow(
      `Another process holds the embedded store in ${join(dataDir, 'dynamodb')}. It did not let go of it within 0 s: stop it, or use another data directory (GATEWAY_DATA_DIR).`,
    );
  });
});
