/** A JSON object (not null, not an array), or undefined. */
export function asJsonObject(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/** Parses text that should hold a JSON object; undefined for anything else, malformed JSON included. */
export function parseJsonObject(text: string): Record<string, unknown> | undefined {
  try {
    return asJsonObject(JSON.parse(text));
  } catch {
    return undefined;
  }
}
