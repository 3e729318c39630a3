import type { CanonicalRequest } from './canonical-request.ts';
import type { DroppedFields } from './dropped-fields.ts';

/** Where a cache mark stood, as `x-gateway-dropped-fields` names a mark a writer did not write. */
export type CacheMarkPlace = 'system' | 'tools' | 'messages';

export const DROPPED_CACHE_MARK: Readonly<Record<CacheMarkPlace, string>> = {
  system: 'system[].cache_control',
  tools: 'tools[].cache_control',
  messages: 'messages[].content[].cache_control',
};

/**
 * At most four cache breakpoints per request: Anthropic refuses more, and Bedrock too. A writer keeps
 * the last four in prompt order (tools, system, messages): each caches the whole prompt before it, so the
 * latest cover the most.
 */
export const MAX_CACHE_MARKS = 4;

/** For a writer whose protocol has no cache marks: names each kind of mark the request carries as dropped. */
export function dropCacheMarks(request: CanonicalRequest): void {
  if (request.tools.some((tool) => tool.cache)) request.dropped.add(DROPPED_CACHE_MARK.tools);
  const systemTurnMarked = request.messages.some((message) => message.role === 'system' && message.parts.some((part) => part.cache));
  if ((request.systemCache?.length ?? 0) > 0 || systemTurnMarked) request.dropped.add(DROPPED_CACHE_MARK.system);
  if (request.messages.some((message) => message.role !== 'system' && message.parts.some((part) => part.cache))) request.dropped.add(DROPPED_CACHE_MARK.messages);
}

/** The marks a writer writes, the last MAX_CACHE_MARKS in prompt order; the earlier ones are named as dropped. */
export function lastCacheMarks<Site extends { place: CacheMarkPlace }>(sites: readonly Site[], dropped: DroppedFields): readonly Site[] {
  for (const { place } of sites.slice(0, -MAX_CACHE_MARKS)) dropped.add(DROPPED_CACHE_MARK[place]);
  return sites.slice(-MAX_CACHE_MARKS);
}
