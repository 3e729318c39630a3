import { resolve } from 'node:path';
import { startLocalBackend, type LocalBackend } from './backend.ts';
import { readLiveHostFile } from './host-file.ts';
import { openLocalEnvironment, type LocalEnvironment } from './local-environment.ts';
import { LocalHostError } from './local-host-error.ts';
import { retryWhileStoreHeld, STORE_WAIT_MS } from './retry-while-store-held.ts';
import { StoreHeldError } from './store-held-error.ts';

export interface HostEnvironmentOptions {
  dataDir: string;
  /** Settings for the handlers, by their environment names. */
  env?: Record<string, string>;
  /** Told what the start waits for (another process holding the store); nothing said without it. */
  report?: (line: string) => void;
  /** How long to wait for another process to let go of the store (STORE_WAIT_MS unless given; 0 tries once). */
  storeWaitMs?: number;
}

/**
 * The host's environment, its store opened in the backend process. A gateway already running on the data
 * directory is refused at once; a store another process holds for a while (an admin command running on it,
 * a gateway starting or stopping) is waited for. What stops the start is a LocalHostError.
 */
export async function openHostEnvironment(options: HostEnvironmentOptions): Promise<LocalEnvironment & { store: LocalBackend }> {
  const dataDir = resolve(options.dataDir);
  const waitMs = options.storeWaitMs ?? STORE_WAIT_MS;
  try {
    return await retryWhileStoreHeld(
      async () => {
        const running = await readLiveHostFile(dataDir);
        if (running) {
          throw new LocalHostError(
            `A gateway is already running on ${dataDir} (pid ${running.pid}, ${running.url}). Stop it first, or start this one on another data directory: GATEWAY_DATA_DIR=./.gateway-2 npm start`,
          );
        }
        return openLocalEnvironment(dataDir, options.env ?? {}, startLocalBackend);
      },
      {
        waitMs,
        onHeld: () => options.report?.(`Another process holds the store in ${dataDir} (an admin command, or a gateway starting or stopping): waiting up to ${waitMs / 1000} s for it.`),
      },
    );
  } catch (error) {
    if (error instanceof LocalHostError) throw error;
    if (error instanceof StoreHeldError) {
      throw new LocalHostError(`${error.message} It did not let go of it within ${waitMs / 1000} s: stop it, or use another data directory (GATEWAY_DATA_DIR).`, { cause: error });
    }
    throw new LocalHostError(`${error instanceof Error ? error.message : String(error)} Stop the other process, or use another data directory (GATEWAY_DATA_DIR).`, { cause: error });
  }
}
