/**
 * What a path no route serves says about the client's base URL, for the 404's message: a base URL that
 * already ends in /v1 given to a client that adds /v1 itself (`ANTHROPIC_BASE_URL=…/v1`) sends /v1/v1/…,
 * and one without /v1 given to an OpenAI SDK sends /chat/completions. Empty when the path says neither.
 */
export function baseUrlHint(path: string): string {
  if (path === '/v1/v1' || path.startsWith('/v1/v1/')) {
    return " The path repeats /v1: the client's base URL ends in /v1 and the client adds /v1 itself. Give such clients (Anthropic's SDK, Claude Code) the gateway's address alone; OpenAI's SDKs take it followed by /v1, once.";
  }
  if (!/^\/(v1|mcp)(\/|$)/.test(path)) {
    return " The gateway's routes start with /v1: give OpenAI's SDKs the gateway's address followed by /v1 as their base URL (clients that add /v1 themselves, such as Anthropic's SDK and Claude Code, take the address alone).";
  }
  return '';
}
