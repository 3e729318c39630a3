import { DROPPED_CACHE_MARK, lastCacheMarks } from '../../canonical/cache-marks.ts';
import type { DroppedFields } from '../../canonical/dropped-fields.ts';
import { bedrockCacheFields, type BedrockCacheField } from '../../core/bedrock-models.ts';
import type { ConverseCachePoint } from './converse-request-types.ts';

/** One list of a Converse body in prompt order (tools, system, then each message's content). */
export interface CacheList {
  field: BedrockCacheField;
  blocks: object[];
}

/**
 * Writes a `cachePoint` after each block the client marked (`marked`), in the lists the model caches
 * (bedrockCacheFields; all of them when the model id does not say), the last MAX_CACHE_MARKS of them.
 * Marks the model cannot take, or beyond those, are dropped and named.
 */
export function writeCachePoints(lists: readonly CacheList[], marked: ReadonlySet<object>, upstreamModel: string, dropped: DroppedFields): void {
  const cacheable = bedrockCacheFields(upstreamModel);
  const sites: Array<{ place: BedrockCacheField; list: CacheList; block: object }> = [];
  for (const list of lists) {
    for (const block of list.blocks) {
      if (!marked.has(block)) continue;
      if (cacheable && !cacheable.includes(list.field)) dropped.add(DROPPED_CACHE_MARK[list.field]);
      else sites.push({ place: list.field, list, block });
    }
  }
  for (const { list, block } of lastCacheMarks(sites, dropped)) {
    const point: ConverseCachePoint = { cachePoint: { type: 'default' } };
    list.blocks.splice(list.blocks.indexOf(block) + 1, 0, point);
  }
}
