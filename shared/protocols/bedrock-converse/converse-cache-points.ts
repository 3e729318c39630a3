import type { DroppedFields } from '../../canonical/dropped-fields.ts';
import { bedrockCacheFields, type BedrockCacheField } from '../../core/bedrock-models.ts';
import type { ConverseCachePoint } from './converse-request-types.ts';

/** At most four checkpoints per request, as on Anthropic's API; Bedrock refuses more. */
const MAX_CACHE_POINTS = 4;

const DROPPED_NAMES: Readonly<Record<BedrockCacheField, string>> = {
  system: 'system[].cache_control',
  tools: 'tools[].cache_control',
  messages: 'messages[].content[].cache_control',
};

/** One list of a Converse body in prompt order (tools, system, then each message's content). */
export interface CacheList {
  field: BedrockCacheField;
  blocks: object[];
}

/**
 * Writes a `cachePoint` after each block the client marked (`marked`), in the lists the model caches
 * (bedrockCacheFields; all of them when the model id does not say). Only the last four are kept: each
 * checkpoint caches the whole prompt before it, so the latest ones cover the most. Marks the model cannot
 * take, or beyond the four, are dropped and named.
 */
export function writeCachePoints(lists: readonly CacheList[], marked: ReadonlySet<object>, upstreamModel: string, dropped: DroppedFields): void {
  const cacheable = bedrockCacheFields(upstreamModel);
  const sites: Array<{ list: CacheList; block: object }> = [];
  for (const list of lists) {
    for (const block of list.blocks) {
      if (!marked.has(block)) continue;
      if (cacheable && !cacheable.includes(list.field)) dropped.add(DROPPED_NAMES[list.field]);
      else sites.push({ list, block });
    }
  }
  for (const { list } of sites.slice(0, -MAX_CACHE_POINTS)) dropped.add(DROPPED_NAMES[list.field]);
  for (const { list, block } of sites.slice(-MAX_CACHE_POINTS)) {
    const point: ConverseCachePoint = { cachePoint: { type: 'default' } };
    list.blocks.splice(list.blocks.indexOf(block) + 1, 0, point);
  }
}
