import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as z from 'zod';

/** Where `npm start`, the admin CLI and the usage CLI keep and look for the local data, unless GATEWAY_DATA_DIR says. */
export const DEFAULT_DATA_DIR = './.gateway';

/**
 * The running host leaves `host.json` (owner-only) in its data directory so the admin CLI can reach
 * its Invoke API: the embedded store's files are locked while the host has them open.
 */
export const LOCAL_ADMIN_TOKEN_HEADER = 'x-gateway-local-admin-token';

const hostFileSchema = z.object({ url: z.string(), pid: z.number().int(), adminToken: z.string() });
export type HostFile = z.infer<typeof hostFileSchema>;

export function hostFilePath(dataDir: string): string {
  return join(dataDir, 'host.json');
}

export async function writeHostFile(dataDir: string, host: HostFile): Promise<void> {
  await writeFile(hostFilePath(dataDir), JSON.stringify(host), { mode: 0o600 });
}

/**
 * The host file, if the host that wrote it still runs: its process exists and it answers `/health` (a
 * process killed with SIGKILL can linger as a zombie, and its pid can be reused).
 */
export async function readLiveHostFile(dataDir: string): Promise<HostFile | undefined> {
  let host: HostFile;
  try {
    host = hostFileSchema.parse(JSON.parse(await readFile(hostFilePath(dataDir), 'utf8')));
  } catch {
    return undefined;
  }
  try {
    process.kill(host.pid, 0);
  } catch {
    return undefined;
  }
  try {
    const health = await fetch(`${host.url}/health`, { signal: AbortSignal.timeout(2_000) });
    await health.body?.cancel();
    return health.ok ? host : undefined;
  } catch {
    return undefined;
  }
}
