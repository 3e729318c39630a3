/**
 * The embedded store could not be opened because another process holds it: LevelDB locks its directory for
 * one process, a gateway's (while it starts, runs or stops) or an admin command's running on the store
 * directly. Holding is brief except for a running gateway, so callers may try again (retry-while-store-held.ts).
 */
export class StoreHeldError extends Error {
  override readonly name = 'StoreHeldError';
  readonly directory: string;

  constructor(directory: string, options?: ErrorOptions) {
    super(`Another process holds the embedded store in ${directory}.`, options);
    this.directory = directory;
  }
}

/**
 * What dynalite throws, outside any promise, at its first request when its LevelDB did not open (it opens
 * lazily and drops the reason, a lock held by another process being the usual one).
 */
const LEVEL_NOT_OPEN_CODES = new Set(['LEVEL_DATABASE_NOT_OPEN', 'LEVEL_ITERATOR_NOT_OPEN', 'LEVEL_LOCKED']);

export function isLevelNotOpenCode(code: string | undefined): boolean {
  return code !== undefined && LEVEL_NOT_OPEN_CODES.has(code);
}
