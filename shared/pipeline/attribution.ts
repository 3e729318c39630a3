import { isUtf8 } from 'node:buffer';
import { textPrefix } from '../core/text-prefix.ts';
import type { Attribution } from '../core/usage-record.ts';
import type { GatewayRequest } from '../http/gateway-http.ts';

type Headers = GatewayRequest['headers'];

function first(headers: Headers, names: string[], maxLength: number): string | undefined {
  for (const name of names) {
    const value = headers[name]?.trim();
    if (value) return textPrefix(readUtf8(value), maxLength);
  }
  return undefined;
}

/**
 * Header bytes reach the handler one character per byte (Latin-1), so an app name sent as UTF-8
 * (`X-Title: Ünïcødé 🚀`) would be stored garbled: a value whose bytes are valid UTF-8 is read as UTF-8.
 * A value that already holds wider characters, or whose bytes are not UTF-8 (real Latin-1), stays as it is.
 */
function readUtf8(value: string): string {
  if (!/[\u0080-\u00ff]/.test(value) || /[^\u0000-\u00ff]/.test(value)) return value;
  const bytes = Buffer.from(value, 'latin1');
  return isUtf8(bytes) ? bytes.toString('utf8') : value;
}

/** The most of an end user's id kept: Anthropic's limit for `metadata.user_id`, and room for any hashed or e-mail id. */
const END_USER_MAX_LENGTH = 256;

/**
 * Attribution headers (spec 6) for the generation record. The real client names come first (Claude Code
 * sends X-Claude-Code-*); the spec's generic names are accepted too. `endUser` is the end user the body
 * names (the endpoint reads it: GenerationEndpoint.endUser), bounded like the headers.
 */
export function readAttribution(headers: Headers, endUser?: string): Attribution {
  const namedUser = endUser?.trim();
  const attribution: Attribution = {
    environment: first(headers, ['x-environment', 'x-llm-environment'], 256),
    referer: first(headers, ['http-referer', 'referer'], 1024),
    title: first(headers, ['x-title', 'x-partner-title', 'x-openrouter-title'], 256),
    sessionId: first(headers, ['x-claude-code-session-id', 'x-agent-code-session-id'], 256),
    agentId: first(headers, ['x-claude-code-agent-id', 'x-agent-code-agent-id'], 256),
    userAgent: first(headers, ['user-agent'], 512),
    endUser: namedUser ? textPrefix(namedUser, END_USER_MAX_LENGTH) : undefined,
  };
  return Object.fromEntries(Object.entries(attribution).filter(([, value]) => value !== undefined));
}
