/**
 * How deep a client's JSON may nest. Deeper bodies are refused (400) before anything recursive touches
 * them: JSON.stringify, schema validation and translation all recurse, and around 5,000 levels the stack
 * runs out. 128 levels leave room for the deepest tool schemas agents send.
 */
export const MAX_JSON_DEPTH = 128;

/** Whether a parsed JSON value nests deeper than `maxDepth` (walked without recursion). */
export function exceedsJsonDepth(value: unknown, maxDepth: number = MAX_JSON_DEPTH): boolean {
  const pending: Array<{ value: unknown; depth: number }> = [{ value, depth: 1 }];
  while (pending.length > 0) {
    const { value: current, depth } = pending.pop() as { value: unknown; depth: number };
    if (typeof current !== 'object' || current === null) continue;
    if (depth > maxDepth) return true;
    for (const child of Array.isArray(current) ? current : Object.values(current)) {
      if (typeof child === 'object' && child !== null) pending.push({ value: child, depth: depth + 1 });
    }
  }
  return false;
}
