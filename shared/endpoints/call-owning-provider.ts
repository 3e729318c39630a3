import type { ProviderConfig } from '../core/project-config.ts';
import type { GatewayResponse } from '../http/gateway-http.ts';
import type { AdmittedRequest } from '../pipeline/admit-request.ts';
import { callProvider } from '../pipeline/call-provider.ts';
import type { GatewayServices } from '../pipeline/gateway-services.ts';
import { attemptLimits } from '../pipeline/plan-targets.ts';
import type { RouteContext } from '../pipeline/route-context.ts';
import { relayOpenAiUpstreamError } from '../protocols/openai-chat/openai-errors.ts';
import { isGatewaySideUpstreamStatus, readUpstreamErrorAnswer, upstreamAnswerToGatewayError } from '../transport/upstream-errors.ts';

/**
 * Calls the provider that made an object the gateway passes through (a stored response, a video) at `path`
 * below its base URL, with no body, as every attempt calls it. The provider's refusal of the request reaches
 * the client in OpenAI's error words (`refusal`); its own failure (a 5xx, a 429, a rejected credential)
 * is thrown as the gateway error naming it.
 */
export async function callOwningProvider(
  services: GatewayServices,
  admitted: AdmittedRequest,
  route: RouteContext,
  provider: ProviderConfig,
  call: { method: string; path: string; accept: string },
): Promise<{ response: Response; refusal?: undefined } | { refusal: GatewayResponse }> {
  const { firstByteTimeoutMs } = attemptLimits(services, admitted, route.receivedAt);
  const { response, apiKey } = await callProvider(services, admitted.config.project.projectId, provider, { path: call.path, method: call.method, headers: { accept: call.accept } }, firstByteTimeoutMs);
  if (response.ok) return { response };
  const answer = await readUpstreamErrorAnswer(response, apiKey);
  if (isGatewaySideUpstreamStatus(answer.status)) throw upstreamAnswerToGatewayError(answer, provider.provider, provider.auth === 'aws-sigv4' ? 'aws' : 'key');
  return { refusal: relayOpenAiUpstreamError(answer) };
}
