import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readLiveHostFile } from '../../../tools/local-host/host-file.ts';
import { reachableUrl, startLocalHost } from '../../../tools/local-host/local-host.ts';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('the URL the local host gives clients on this machine', () => {
  it('is loopback when the host listens on every interface, else the address it listens on', () => {
    expect(reachableUrl('0.0.0.0', 8787)).toBe('http://127.0.0.1:8787');
    expect(reachableUrl('::', 8787)).toBe('http://127.0.0.1:8787');
    expect(reachableUrl('127.0.0.1', 8787)).toBe('http://127.0.0.1:8787');
    expect(reachableUrl('192.168.1.20', 8787)).toBe('http://192.168.1.20:8787');
    expect(reachableUrl('::1', 8787)).toBe('http://[::1]:8787');
  });

  it('reaches a host started on one address other than 127.0.0.1, through host.json as the admin CLI finds it', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'gateway-host-url-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    // Linux answers the whole 127/8 block on loopback: an address of this machine that is not 127.0.0.1.
    const host = await startLocalHost({ port: 0, hostname: '127.0.0.2', dataDir, env: { POWERTOOLS_LOG_LEVEL: 'SILENT' } });
    cleanups.push(async () => void (await host.close()));

    expect(host.url).toBe(`http://127.0.0.2:${host.port}`);
    const hostFile = await readLiveHostFile(dataDir);
    expect(hostFile?.url).toBe(host.url);
    expect((await fetch(`${hostFile?.url}/health`)).status).toBe(200);
  });
});
