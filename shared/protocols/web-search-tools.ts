import type { BilledUnits } from '../core/billed-units.ts';
import { asJsonObject } from '../core/json-object.ts';

/**
 * Searches assumed for a web search tool that sets no limit of its own, as an output cap is assumed for a
 * request that sets none (admit-usage.ts): Anthropic's tool without `max_uses` may search on, and OpenAI's
 * has no limit but the request's `max_tool_calls`. Claude Code sets `max_uses` 8.
 */
export const DEFAULT_WEB_SEARCHES_BOUND = 10;

/** Anthropic's web search tool (`web_search_20250305`, …) and OpenAI's (`web_search`, `web_search_preview`, …). */
const WEB_SEARCH_TOOL = /^web_search/;

/**
 * The most web searches a request's tools can run, billed per search beside the tokens (prepaid admission
 * reserves them): each web search tool's `max_uses` (Anthropic's), else the request's limit on hosted tool
 * calls (`max_tool_calls`, OpenAI's), else DEFAULT_WEB_SEARCHES_BOUND; undefined when it has no such tool.
 */
export function webSearchesBound(tools: unknown, maxToolCalls?: unknown): BilledUnits | undefined {
  if (!Array.isArray(tools)) return undefined;
  let bound = 0;
  for (const tool of tools) {
    const object = asJsonObject(tool);
    if (typeof object?.type !== 'string' || !WEB_SEARCH_TOOL.test(object.type)) continue;
    bound += positiveCount(object.max_uses) ?? positiveCount(maxToolCalls) ?? DEFAULT_WEB_SEARCHES_BOUND;
  }
  return bound > 0 ? { webSearches: bound } : undefined;
}

/**
 * Anthropic's tools with each web search tool that sets no `max_uses` given the DEFAULT_WEB_SEARCHES_BOUND
 * its reservation counted (a prepaid request's; within-reservation.ts). Other tools as sent; the same
 * array when no tool needed a limit.
 */
export function withWebSearchUsesLimited(tools: unknown): unknown {
  if (!Array.isArray(tools)) return tools;
  let changed = false;
  const limited = tools.map((tool) => {
    const object = asJsonObject(tool);
    const unlimited = typeof object?.type === 'string' && WEB_SEARCH_TOOL.test(object.type) && positiveCount(object.max_uses) === undefined;
    if (!unlimited) return tool;
    changed = true;
    return { ...object, max_uses: DEFAULT_WEB_SEARCHES_BOUND };
  });
  return changed ? limited : tools;
}

/**
 * The `max_tool_calls` a prepaid Responses request is sent: the searches its web search tools were reserved
 * (webSearchesBound) when the request sets no limit the bound read as one (absent, null, 0, not a whole
 * number: all unlimited to it); undefined when it needs none. OpenAI's web search tool has no limit of its own.
 */
export function responsesToolCallsLimit(tools: unknown, maxToolCalls: unknown): number | undefined {
  return positiveCount(maxToolCalls) === undefined ? webSearchesBound(tools)?.webSearches : undefined;
}

function positiveCount(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined;
}
