/**
 * The gateway's route groups: one function with a URL each, and CloudFront behaviours routing paths to it.
 * Adding a route group (messages, editor, MCP) is one entry here plus its `functions/<name>/handler.ts`.
 */
export interface RouteGroup {
  /** Lower-case id: names the function's construct, its logs (`gateway-<name>`) and its metrics service. */
  name: string;
  /** Handler entry, relative to the repository root. */
  entry: string;
  /**
   * CloudFront path patterns, one behaviour each, or `default`: the group that serves every path no other
   * pattern matches (CloudFront's default behaviour). CloudFront tries the patterns in the order of this
   * list, so put more specific patterns first.
   */
  paths: 'default' | readonly string[];
  /** Serves `GET /v1/generation`, so it may query the generations table (least privilege: the others may not). */
  looksUpGenerations?: true;
}

export const routeGroups: readonly RouteGroup[] = [
  // `/v1/*` and `/health`: the OpenAI-compatible group takes what the others do not.
  { name: 'openai', entry: 'functions/openai/handler.ts', paths: 'default', looksUpGenerations: true },
  // `/v1/messages` and `/v1/messages/count_tokens`, in Anthropic's protocol.
  { name: 'messages', entry: 'functions/messages/handler.ts', paths: ['/v1/messages*'] },
  // As they land (see ../shared/DESIGN.md):
  // { name: 'editor', entry: 'functions/editor/handler.ts', paths: ['/v1/editor/*'] },
  // { name: 'mcp', entry: 'functions/mcp/handler.ts', paths: ['/mcp/*'] },
];

/** Exactly one default group, unique names, and no pattern claimed twice. */
export function validateRouteGroups(groups: readonly RouteGroup[]): void {
  const defaults = groups.filter((group) => group.paths === 'default');
  if (defaults.length !== 1) throw new Error(`Exactly one route group must serve the default path; found ${defaults.length}.`);
  const names = new Set(groups.map((group) => group.name));
  if (names.size !== groups.length) throw new Error('Route group names must be unique.');
  const seen = new Set<string>();
  for (const pattern of groups.flatMap((group) => (group.paths === 'default' ? [] : group.paths))) {
    if (seen.has(pattern)) throw new Error(`Path pattern ${pattern} belongs to two route groups.`);
    seen.add(pattern);
  }
}
