import { GatewayError } from './errors.ts';
import type { KeyRecord } from './key-record.ts';
import type { LimitCharge, LimitDecision } from './ports.ts';
import type { Project } from './project-config.ts';

export const WINDOW_MS = 60_000;

interface NamedCharge extends LimitCharge {
  /** What the limit is, for the client: "requests per minute of this key". */
  label: string;
  kind: 'requests' | 'tokens';
}

/** The limit charges of one request: per-key and per-project requests, per-project tokens (estimated). */
export function limitChargesFor(key: KeyRecord, project: Project, estimatedTokens: number, now: number): NamedCharge[] {
  const window = Math.floor(now / WINDOW_MS);
  const windowEndsAt = (window + 1) * WINDOW_MS;
  const charges: NamedCharge[] = [];
  if (key.rpm !== undefined) {
    charges.push({ counterKey: `rpm#key#${key.keyId}#${window}`, limit: key.rpm, amount: 1, windowEndsAt, label: 'requests per minute of this key', kind: 'requests' });
  }
  if (project.rpm !== undefined) {
    charges.push({ counterKey: `rpm#project#${project.projectId}#${window}`, limit: project.rpm, amount: 1, windowEndsAt, label: 'requests per minute of this project', kind: 'requests' });
  }
  if (project.tpm !== undefined) {
    charges.push({ counterKey: `tpm#project#${project.projectId}#${window}`, limit: project.tpm, amount: Math.max(1, estimatedTokens), windowEndsAt, label: 'tokens per minute of this project', kind: 'tokens' });
  }
  return charges;
}

/**
 * The charges of a token count (count_tokens, Responses' input_tokens): the key's and the project's
 * requests per minute, each in a window of its own, so that counting never uses up what generation
 * requests may send (Claude Code counts often), while a flood of counts is still refused. Anthropic, too,
 * limits token counting apart from message creation. Both counting endpoints share the windows; `endpoint`
 * names the one refused.
 */
export function tokenCountChargesFor(key: KeyRecord, project: Project, now: number, endpoint = 'count_tokens'): NamedCharge[] {
  return requestChargesFor(key, project, now).map((charge) => ({ ...charge, counterKey: `count-${charge.counterKey}`, label: `${endpoint} ${charge.label}` }));
}

/** The requests-per-minute charges alone (the key's and the project's), for requests that use no tokens. */
export function requestChargesFor(key: KeyRecord, project: Project, now: number): NamedCharge[] {
  return limitChargesFor(key, project, 0, now).filter((charge) => charge.kind === 'requests');
}

/** OpenAI's rate-limit headers for the tightest request and token limits that were checked. */
export function rateLimitHeaders(charges: readonly NamedCharge[], counts: readonly number[], now: number): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const kind of ['requests', 'tokens'] as const) {
    let tightest: { charge: NamedCharge; remaining: number } | undefined;
    charges.forEach((charge, index) => {
      if (charge.kind !== kind) return;
      const remaining = Math.max(0, charge.limit - (counts[index] ?? charge.amount));
      if (!tightest || remaining < tightest.remaining) tightest = { charge, remaining };
    });
    if (!tightest) continue;
    headers[`x-ratelimit-limit-${kind}`] = String(tightest.charge.limit);
    headers[`x-ratelimit-remaining-${kind}`] = String(tightest.remaining);
    headers[`x-ratelimit-reset-${kind}`] = `${Math.max(1, Math.ceil((tightest.charge.windowEndsAt - now) / 1000))}s`;
  }
  return headers;
}

/**
 * The 429 for a refused charge, with Retry-After until its window ends. A charge larger than the limit
 * itself (a prompt past tokens per minute, a batch of more tool calls than requests per minute) can never
 * pass: it says so, and names no time to retry after nor a remaining count it did not read.
 */
export function rateLimited(decision: Extract<LimitDecision, { allowed: false }>, charges: readonly NamedCharge[], now: number): GatewayError {
  const charge = charges[decision.refusedIndex] as NamedCharge;
  const retryAfter = Math.max(1, Math.ceil((charge.windowEndsAt - now) / 1000));
  const code = charge.kind === 'tokens' ? 'tokens_rate_limited' : 'requests_rate_limited';
  const limitHeader = { [`x-ratelimit-limit-${charge.kind}`]: String(charge.limit) };
  if (charge.amount > charge.limit) {
    const needs = charge.kind === 'tokens' ? `needs about ${charge.amount} tokens` : `counts as ${charge.amount} requests (a batch of calls)`;
    return new GatewayError('rate_limited', `This request ${needs}, more than the ${charge.limit} ${charge.label} allows.`, { code, headers: limitHeader });
  }
  return new GatewayError('rate_limited', `Rate limit reached: ${charge.limit} ${charge.label}. Retry after ${retryAfter} s.`, {
    code,
    headers: {
      'retry-after': String(retryAfter),
      ...limitHeader,
      [`x-ratelimit-remaining-${charge.kind}`]: '0',
      [`x-ratelimit-reset-${charge.kind}`]: `${retryAfter}s`,
    },
  });
}

export type { NamedCharge };
