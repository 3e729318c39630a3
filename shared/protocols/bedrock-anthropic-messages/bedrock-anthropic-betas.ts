/**
 * The `anthropic-beta` values Bedrock accepts for Claude (AWS's list for the Messages API on Bedrock,
 * plus Claude Code's own, which Bedrock takes). Bedrock refuses a request with any other value ("invalid
 * beta flag", HTTP 400), and Claude Code sends several that only Anthropic's API knows, so the others are
 * left out rather than passed on (docs/decisions/bedrock.md).
 */
export const BEDROCK_ANTHROPIC_BETAS: ReadonlySet<string> = new Set([
  'claude-code-20250219',
  'computer-use-2024-10-22',
  'computer-use-2025-01-24',
  'token-efficient-tools-2025-02-19',
  'interleaved-thinking-2025-05-14',
  'output-128k-2025-02-19',
  'dev-full-thinking-2025-05-14',
  'context-1m-2025-08-07',
  'context-management-2025-06-27',
  'effort-2025-11-24',
  'tool-search-tool-2025-10-19',
  'tool-examples-2025-10-29',
]);

/** The client's betas (its `anthropic-beta` header, comma-separated) that Bedrock accepts, once each. */
export function bedrockBetas(header: string | undefined): string[] {
  const requested = (header ?? '').split(',').map((beta) => beta.trim());
  return [...new Set(requested.filter((beta) => BEDROCK_ANTHROPIC_BETAS.has(beta)))];
}
