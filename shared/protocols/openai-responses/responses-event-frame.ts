import { stringifyWithExactDecimals } from '../../http/exact-decimal-json.ts';

/** One Responses stream event as SSE, as OpenAI frames it: its type as the event name, the event as data. */
export function responsesEventFrame(type: string, payload: Record<string, unknown>): string {
  return `event: ${type}\ndata: ${JSON.stringify({ type, ...payload })}\n\n`;
}

/**
 * A response object whose `usage` gets `cost` as an exact decimal number literal (JSON.stringify would
 * print small costs in exponent notation), serialised by `build` around it.
 */
export function stringifyWithResponseCost(
  build: (usageWithCost: (usage: Record<string, unknown>) => Record<string, unknown>) => unknown,
  costUsd: string,
): string {
  return stringifyWithExactDecimals((decimal) => build((usage) => ({ ...usage, cost: decimal(costUsd) })));
}
