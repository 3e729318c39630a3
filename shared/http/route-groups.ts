/**
 * The gateway's route groups: one function with a URL each, and CloudFront behaviours routing paths to it.
 * Adding a route group is one entry here plus its `functions/<name>/handler.ts`, which
 * exports `handler` (Lambda's entry) and `createHandler(config, dependencies)` (the local host's). The
 * local host routes paths with this very table, as CloudFront does.
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
  /** Serves `GET /v1/key` and `GET /v1/credits`, so it reads the projects' spend and balance (GetItem of their `usage` item). */
  reportsCredits?: true;
  /** Serves `/v1/videos`, so it keeps the projects' video jobs in the generations table (read, write, claim billing). */
  keepsVideoJobs?: true;
  /** The wire protocol its clients speak: errors the local host answers itself (oversized or stalled bodies) use it. */
  protocol?: 'openai-chat' | 'anthropic-messages';
  /** Its requests are free (the tool bridge): it reserves nothing from prepaid balances, so it may not update them. */
  reservesNoBalance?: true;
  /** It never calls a model (the tool bridge): it is granted no Bedrock model. */
  callsNoModels?: true;
  /**
   * It holds upstream answers whole, a batch's at once (the tool bridge: up to 32 answers of up to 6 MB), so
   * its memory is its own setting (`toolBridge`, docs/decisions/function-sizing.md), not the route groups'.
   */
  holdsToolAnswers?: true;
}

export const routeGroups: readonly RouteGroup[] = [
  // `/v1/*` and `/health`: the OpenAI-compatible group takes what the others do not.
  { name: 'openai', entry: 'functions/openai/handler.ts', paths: 'default', looksUpGenerations: true, reportsCredits: true, keepsVideoJobs: true, protocol: 'openai-chat' },
  // `/v1/messages` and `/v1/messages/count_tokens`, in Anthropic's protocol.
  { name: 'messages', entry: 'functions/messages/handler.ts', paths: ['/v1/messages*'], protocol: 'anthropic-messages' },
  // The editor client (Cursor with its OpenAI base URL set to `/v1/editor`): chat chunks bridged from Responses.
  { name: 'editor', entry: 'functions/editor/handler.ts', paths: ['/v1/editor/*'], protocol: 'openai-chat' },
  // The tool bridge, `/mcp/v1` (Model Context Protocol over Streamable HTTP); its calls cost nothing.
  { name: 'mcp', entry: 'functions/mcp/handler.ts', paths: ['/mcp/*'], reservesNoBalance: true, callsNoModels: true, holdsToolAnswers: true },
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

/**
 * Whether a path matches a CloudFront path pattern: `*` stands for any characters (none included), `?`
 * for exactly one; matching is case-sensitive and covers the whole path.
 */
export function matchesPathPattern(path: string, pattern: string): boolean {
  return patternExpression(pattern).test(path);
}

/** Compiled once per pattern: the local host matches every request against the route table. */
const compiledPatterns = new Map<string, RegExp>();

function patternExpression(pattern: string): RegExp {
  let expression = compiledPatterns.get(pattern);
  if (!expression) {
    const source = pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.');
    expression = new RegExp(`^${source}$`);
    compiledPatterns.set(pattern, expression);
  }
  return expression;
}

/**
 * The route group CloudFront sends a path to: the first whose patterns match, else the default group. The
 * path is matched as sent, as CloudFront matches it (`/v1//messages` goes to the default group); the route
 * group then normalises it (normaliseRequestPath), and pass-through refuses a path that normalised belongs
 * to another group.
 */
export function routeGroupForPath(path: string, groups: readonly RouteGroup[] = routeGroups): RouteGroup {
  const matched = groups.find((group) => group.paths !== 'default' && group.paths.some((pattern) => matchesPathPattern(path, pattern)));
  return matched ?? (groups.find((group) => group.paths === 'default') as RouteGroup);
}
