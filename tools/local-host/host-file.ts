import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';

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

/** The host file, if a host that is still alive wrote it. */
export async function readLiveHostFile(dataDir: string): Promise<HostFile | undefined> {
  let host: HostFile;
  try {
    host = hostFileSchema.parse(JSON.parse(await readFile(hostFilePath(dataDir), 'utf8')));
  } catch {
    return undefined;
  }
  try {
    process.kill(host.pid, 0);
    return host;
  } catch {
    return undefined;
  }
}
