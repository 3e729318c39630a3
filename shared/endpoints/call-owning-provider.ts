import type { ProviderConfig } from '../core/project-config.ts';
import type { GatewayResponse } from '../http/gateway-http.ts';
import type { AdmittedRequest } from '../pipeline/admit-request.ts';
import { callProvider } from '../pipeline/call-provider.ts';
import type { GatewayServices } from '../pipeline/gateway-services.ts';
import { attemptLimits } from '../pipeline/plan-targets.ts';
import type { RouteContext } from '../pipeline/route-context.ts';
import { openAiRefusals } from '../protocols/openai-chat/openai-errors.ts';
import { relayUpstreamRefusal } from '../protocols/upstream-refusal.ts';
import { readBeforeDeadline, type AnswerTimeLimits } from '../transport/answer-time-limits.ts';
import type { StreamSettlement } from '../transport/stream-relay.ts';
import { isGatewaySideUpstreamStatus, readUpstreamErrorAnswer, upstreamAnswerToGatewayError } from '../transport/upstream-errors.ts';

/**
 * Calls the provider that made an object the gateway passes through (a stored response, a video) at `path`
 * below its base URL, with no body, as every attempt calls it. The provider's refusal of the request reaches
 * the client in OpenAI's error words (`refusal`); its own failure (a 5xx, a 429, a rejected credential)
 * is thrown as the gateway error naming it. `readText` reads the answer whole before the request's deadline;
 * `relay` bounds a body relayed as it comes (a stored response's events, a video's bytes).
 */
export async function callOwningProvider(
  services: GatewayServices,
  admitted: AdmittedRequest,
  route: RouteContext,
  provider: ProviderConfig,
  call: { method: string; path: string; accept: string },
): Promise<{ response: Response; readText(): Promise<string>; relay(): OwnedBodyRelay; refusal?: undefined } | { refusal: GatewayResponse }> {
  const { firstByteTimeoutMs, deadlineAt } = attemptLimits(services, admitted, route.receivedAt);
  const exchange = new AbortController();
  const { response, apiKey } = await callProvider(services, admitted.config.project.projectId, provider, { path: call.path, method: call.method, headers: { accept: call.accept } }, firstByteTimeoutMs, exchange);
  // A body read whole is bounded by the request's deadline, as a generation's is: one that never ends is a time-out.
  const beforeDeadline = <T>(reading: Promise<T>) =>
    readBeforeDeadline(reading, { remainingMs: deadlineAt - services.clock.now(), provider: provider.provider, abort: (reason) => exchange.abort(reason) });
  // A body relayed as it comes has the limits of a generation's stream: silent no longer than its head could
  // take, ended by the deadline. Unmetered, its failure after the client's head is only logged.
  const relay = (): OwnedBodyRelay => ({
    provider: provider.provider,
    timeLimits: { remainingMs: deadlineAt - services.clock.now(), idleMs: firstByteTimeoutMs },
    onSettled: async (settlement) => {
      if (settlement.outcome !== 'failed') return;
      exchange.abort(settlement.error);
      route.reportError?.(settlement.error);
    },
  });
  if (response.ok) return { response, readText: () => beforeDeadline(response.text()), relay };
  const answer = await beforeDeadline(readUpstreamErrorAnswer(response, apiKey));
  if (isGatewaySideUpstreamStatus(answer.status)) throw upstreamAnswerToGatewayError(answer, provider.provider, provider.auth === 'aws-sigv4' ? 'aws' : 'key');
  return { refusal: relayUpstreamRefusal(openAiRefusals, answer) };
}

/** What a relay of an owned object's body is given (stream-relay.ts, bytes-relay.ts take these options). */
export interface OwnedBodyRelay {
  provider: string;
  /** What is left of the request's deadline, and the longest silence allowed: the first-byte time-out. */
  timeLimits: AnswerTimeLimits;
  /** A relay that failed lets the upstream's exchange go and logs the failure (the client saw a 200). */
  onSettled(settlement: StreamSettlement): Promise<void>;
}
