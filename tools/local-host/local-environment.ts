import { join, resolve } from 'node:path';
import { mkdir } from 'node:fs/promises';
import { loadRuntimeConfig, type RuntimeConfig } from '../../shared/config/runtime-config.ts';
import { startEmbeddedStore, type EmbeddedStore, type TableNames } from './embedded-store.ts';
import { StoreHeldError } from './store-held-error.ts';

export const LOCAL_TABLES = {
  keys: 'gateway-keys',
  projects: 'gateway-projects',
  generations: 'gateway-generations',
  counters: 'gateway-counters',
} as const;

export interface LocalEnvironment {
  dataDir: string;
  store: EmbeddedStore;
  /** The configuration a function would get in AWS, with the local stand-ins. */
  config: RuntimeConfig;
}

/** Opens the embedded store in a directory: in this process by default (the local host uses its backend process). */
export type OpenStore<Store extends EmbeddedStore> = (directory: string, tables: TableNames) => Promise<Store>;

/**
 * Opens the data directory's embedded store and builds the handlers' configuration around it: the same
 * settings a function reads in AWS, pointed at local stand-ins. `settings` override them (tests shorten
 * time-outs with it). Nothing is written to the process environment.
 */
export async function openLocalEnvironment(dataDirectory: string, settings?: Record<string, string>): Promise<LocalEnvironment>;
export async function openLocalEnvironment<Store extends EmbeddedStore>(dataDirectory: string, settings: Record<string, string>, openStore: OpenStore<Store>): Promise<LocalEnvironment & { store: Store }>;
export async function openLocalEnvironment(
  dataDirectory: string,
  settings: Record<string, string> = {},
  openStore: OpenStore<EmbeddedStore> = startEmbeddedStore,
): Promise<LocalEnvironment> {
  const dataDir = resolve(dataDirectory);
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  let store: EmbeddedStore;
  try {
    store = await openStore(join(dataDir, 'dynamodb'), LOCAL_TABLES);
  } catch (error) {
    if (error instanceof StoreHeldError) throw error;
    throw new Error(`Could not open the embedded store in ${dataDir} (is another gateway process using it?)`, { cause: error });
  }
  const config = loadRuntimeConfig({
    AWS_REGION: 'local',
    GATEWAY_KEYS_TABLE: LOCAL_TABLES.keys,
    GATEWAY_PROJECTS_TABLE: LOCAL_TABLES.projects,
    GATEWAY_GENERATIONS_TABLE: LOCAL_TABLES.generations,
    GATEWAY_COUNTERS_TABLE: LOCAL_TABLES.counters,
    GATEWAY_USAGE_ARCHIVE: 'file',
    GATEWAY_USAGE_DIR: dataDir,
    GATEWAY_DYNAMODB_ENDPOINT: store.endpoint,
    GATEWAY_SECRETS_BACKEND: 'file',
    GATEWAY_SECRETS_FILE: join(dataDir, 'secrets.json'),
    GATEWAY_ALLOW_PRIVATE_UPSTREAMS: 'true',
    POWERTOOLS_LOG_LEVEL: process.env.POWERTOOLS_LOG_LEVEL ?? 'WARN',
    ...settings,
  });
  return { dataDir, store, config };
}
