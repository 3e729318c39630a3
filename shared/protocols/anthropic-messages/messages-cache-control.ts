import { lastCacheMarks, type CacheMarkPlace } from '../../canonical/cache-marks.ts';
import type { DroppedFields } from '../../canonical/dropped-fields.ts';
import type { CacheControlled } from './anthropic-request-types.ts';

/** One list of a Messages body in prompt order (tools, system, then each message's content). */
export interface CacheControlList {
  place: CacheMarkPlace;
  blocks: readonly object[];
}

/**
 * Sets `cache_control` on each block the client marked (`marked`), the last MAX_CACHE_MARKS in prompt
 * order (Anthropic refuses a fifth); earlier marks are dropped and named.
 */
export function writeCacheControl(lists: readonly CacheControlList[], marked: ReadonlySet<object>, dropped: DroppedFields): void {
  const sites = lists.flatMap((list) => list.blocks.filter((block) => marked.has(block)).map((block) => ({ place: list.place, block })));
  // Only blocks that take cache_control are marked (never a thinking block, which Anthropic refuses it on).
  for (const { block } of lastCacheMarks(sites, dropped)) (block as CacheControlled).cache_control = { type: 'ephemeral' };
}
