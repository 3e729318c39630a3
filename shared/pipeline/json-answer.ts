import { generatedText, type CanonicalResponse } from '../canonical/canonical-response.ts';
import type { FinishReason } from '../canonical/canonical-events.ts';
import { addUnits } from '../core/billed-units.ts';
import { parseJsonObject } from '../core/json-object.ts';
import { GatewayError } from '../core/errors.ts';
import type { TokenUsage } from '../core/token-usage.ts';
import type { Bridge } from '../protocols/bridge.ts';
import type { Presentation } from '../protocols/wire-protocol.ts';
import { readBeforeDeadline } from '../transport/answer-time-limits.ts';
import { withoutProviderKey } from '../transport/upstream-errors.ts';
import type { UsageEstimator } from './estimate-usage.ts';
import type { ServedAttempt } from './failover.ts';
import { brokenOffAnswer, FailedAnswerError, invalidAnswer } from './invalid-answer.ts';

export interface JsonAnswer {
  bridge: Bridge;
  served: ServedAttempt;
  presentation: Omit<Presentation, 'finalUsage'>;
  estimate: UsageEstimator;
  /** What is left of the request's deadline: the body must have ended by then. */
  remainingMs: number;
}

/**
 * Reads a complete answer once: as the upstream's protocol into canonical terms (for metering, and for
 * the client's writer on a translated bridge). A native answer reaches the client as the upstream sent it
 * (with `usage.cost` when injection is on). A body that is not JSON, breaks off, or is still coming at the
 * request's deadline (the upstream is then let go: `upstream_timeout`) is an upstream failure the caller
 * settles (the prompt estimated, since the provider took the request); so is a translated answer its
 * upstream ended as failed, billed as the upstream counted it.
 */
export async function readJsonAnswer(
  answer: JsonAnswer,
): Promise<{ body: string; contentType: string; usage: TokenUsage; payload: Record<string, unknown>; described: { finishReason?: string; finish?: FinishReason; upstreamId?: string } }> {
  const { bridge, served } = answer;
  // The provider's key never reaches the client, not even in an answer that quotes the request it was sent.
  const text = withoutProviderKey(await readWholeBody(served, answer.remainingMs), served.apiKey);
  const upstreamType = served.response.headers.get('content-type') ?? 'application/json';
  const payload = parseJsonObject(text);
  // A 200 whose body is not the protocol's answer (an HTML error page of a proxy, a body cut short, an error object) is no answer.
  if (!payload || bridge.isCompleteAnswer?.(payload) === false) throw invalidAnswer(served.target.provider.provider, payload, served.apiKey);
  const canonical = bridge.native ? readLeniently(bridge, payload) : bridge.readResponse(payload);
  const counted = canonical.usage ?? (await answer.estimate({ completionText: generatedText(canonical.content) }));
  const usage = canonical.units ? { ...counted, units: addUnits(counted.units, canonical.units) } : counted;
  // Translated, an answer its upstream ended as failed would reach the client as a normal finish.
  if (!bridge.native && canonical.finish === 'error') throw new FailedAnswerError(served.target.provider.provider, canonical.rawFinish, usage);
  const presentation: Presentation = { ...answer.presentation, finalUsage: async () => usage };
  const described = { ...(canonical.rawFinish ? { finishReason: canonical.rawFinish } : {}), finish: canonical.finish, ...(canonical.id ? { upstreamId: canonical.id } : {}) };
  const shown = bridge.presentResponse({ text, payload, canonical, usage, upstreamContentType: upstreamType }, presentation);
  return { ...shown, usage, payload, described };
}

/** A native answer is relayed whatever it holds: what cannot be read is metered by estimate. */
function readLeniently(bridge: Bridge, payload: Record<string, unknown>): CanonicalResponse {
  try {
    return bridge.readResponse(payload);
  } catch {
    return { id: '', model: '', content: [{ type: 'text', text: JSON.stringify(payload) }], finish: 'other' };
  }
}

async function readWholeBody(served: ServedAttempt, remainingMs: number): Promise<string> {
  const provider = served.target.provider.provider;
  try {
    return await readBeforeDeadline(served.response.text(), { remainingMs, provider, abort: served.abort });
  } catch (cause) {
    if (cause instanceof GatewayError) throw cause; // the deadline's `upstream_timeout`, as it is
    throw brokenOffAnswer(provider, cause);
  }
}
