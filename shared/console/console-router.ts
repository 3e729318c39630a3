/** A route's path with `:name` segments, e.g. `/projects/:projectId/keys/:keyId/revoke`. */
export interface RoutePattern {
  method: string;
  path: string;
}

/** The named segments of `path` when it matches the pattern, each URL-decoded; undefined otherwise. */
export function matchRoute(pattern: RoutePattern, method: string, path: string): Record<string, string> | undefined {
  if (pattern.method !== method) return undefined;
  const expected = pattern.path.split('/');
  const actual = path.split('/');
  if (expected.length !== actual.length) return undefined;
  const params: Record<string, string> = {};
  for (const [index, segment] of expected.entries()) {
    const value = actual[index] ?? '';
    if (segment.startsWith(':')) {
      if (value === '') return undefined;
      try {
        params[segment.slice(1)] = decodeURIComponent(value);
      } catch {
        return undefined;
      }
    } else if (segment !== value) {
      return undefined;
    }
  }
  return params;
}
