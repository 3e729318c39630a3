import type { ProviderConfig } from '../core/project-config.ts';
import type { GatewayResponse } from '../http/gateway-http.ts';
import type { AdmittedRequest } from '../pipeline/admit-request.ts';
import { callProvider } from '../pipeline/call-provider.ts';
import type { GatewayServices } from '../pipeline/gateway-services.ts';
import { attemptLimits } from '../pipeline/plan-targets.ts';
import type { RouteContext } from '../pipeline/route-context.ts';
import { relayOpenAiUpstreamError } from '../protocols/openai-chat/openai-errors.ts';
import { readBeforeDeadline } from '../transport/answer-time-limits.ts';
import { isGatewaySideUpstreamStatus, readUpstreamErrorAnswer, upstreamAnswerToGatewayError } from '../transport/upstream-errors.ts';

/**
 * Calls the provider that made an object the gateway passes through (a stored response, a video) at `path`
 * below its base URL, with no body, as every attempt calls it. The provider's refusal of the request reaches
 * the client in OpenAI's error words (`refusal`); its own failure (a 5xx, a 429, a rejected credential)
 * is thrown as the gateway error naming it. `readText` reads the answer whole before the request's deadline.
 */
export async function callOwningProvider(
  services: GatewayServices,
  admitted: AdmittedRequest,
  route: RouteContext,
  provider: ProviderConfig,
  call: { method: string; path: string; accept: string },
): Promise<{ response: Response; readText(): Promise<string>; refusal?: undefined } | { refusal: GatewayResponse }> {
  const { firstByteTimeoutMs, deadlineAt } = attemptLimits(services, admitted, route.receivedAt);
  const exchange = new AbortController();
  const { response, apiKey } = await callProvider(services, admitted.config.project.projectId, provider, { path: call.path, method: call.method, headers: { accept: call.accept } }, firstByteTimeoutMs, exchange);
  // A body read whole is bounded by the request's deadline, as a generation's is: one that never ends is a time-out.
  const beforeDeadline = <T>(reading: Promise<T>) =>
    readBeforeDeadline(reading, { remainingMs: deadlineAt - services.clock.now(), provider: provider.provider, abort: (reason) => exchange.abort(reason) });
  if (response.ok) return { response, readText: () => beforeDeadline(response.text()) };
  const answer = await beforeDeadline(readUpstreamErrorAnswer(response, apiKey));
  if (isGatewaySideUpstreamStatus(answer.status)) throw upstreamAnswerToGatewayError(answer, provider.provider, provider.auth === 'aws-sigv4' ? 'aws' : 'key');
  return { refusal: relayOpenAiUpstreamError(answer) };
}
