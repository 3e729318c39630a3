import type { Attribution } from '../core/usage-record.ts';
import type { GatewayRequest } from '../http/gateway-http.ts';

type Headers = GatewayRequest['headers'];

function first(headers: Headers, names: string[], maxLength: number): string | undefined {
  for (const name of names) {
    const value = headers[name]?.trim();
    if (value) return value.slice(0, maxLength);
  }
  return undefined;
}

/**
 * Attribution headers (spec 6) for the generation record. The real client names come first (Claude Code
 * sends X-Claude-Code-*); the spec's generic names are accepted too.
 */
export function readAttribution(headers: Headers): Attribution {
  const attribution: Attribution = {
    environment: first(headers, ['x-environment', 'x-llm-environment'], 256),
    referer: first(headers, ['http-referer', 'referer'], 1024),
    title: first(headers, ['x-title', 'x-partner-title', 'x-openrouter-title'], 256),
    sessionId: first(headers, ['x-claude-code-session-id', 'x-agent-code-session-id'], 256),
    agentId: first(headers, ['x-claude-code-agent-id', 'x-agent-code-agent-id'], 256),
    userAgent: first(headers, ['user-agent'], 512),
  };
  return Object.fromEntries(Object.entries(attribution).filter(([, value]) => value !== undefined));
}
