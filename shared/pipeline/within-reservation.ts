import type { RouteTarget } from '../core/plan-route.ts';
import { effectiveModelLimits } from '../core/known-models.ts';
import { DEFAULT_MAX_OUTPUT_TOKENS, type UsageAdmission } from './admit-usage.ts';
import type { GenerationEndpoint, RoutableBody } from './generation-endpoint.ts';

/**
 * The body a request goes to each target with. A prepaid reservation counts the request's output cap, else
 * the model's known largest answer, else DEFAULT_MAX_OUTPUT_TOKENS (admit-usage.ts), and each web search
 * tool's limit, else DEFAULT_WEB_SEARCHES_BOUND (web-search-tools.ts): a request that sets no cap, to a
 * model whose largest answer nobody told the gateway, is sent that cap, and web searches without a limit
 * are held to that one, or an answer beyond its reservation would take the balance below zero (OpenRouter,
 * too, caps a request by what the credit affords). Every other request goes as the client sent it.
 */
export function bodiesWithinReservation<Body extends RoutableBody>(
  endpoint: Pick<GenerationEndpoint<Body>, 'maxOutputTokens' | 'withOutputCap' | 'withWebSearchesLimited'>,
  body: Body,
  clientBody: Record<string, unknown>,
  admission: Pick<UsageAdmission, 'prepaid'>,
): (target: RouteTarget) => Record<string, unknown> {
  if (!admission.prepaid) return () => clientBody;
  const limited = endpoint.withWebSearchesLimited?.(clientBody) ?? clientBody;
  const { withOutputCap } = endpoint;
  if (!withOutputCap || endpoint.maxOutputTokens(body) !== undefined) return () => limited;
  let capped: Record<string, unknown> | undefined;
  return (target) =>
    effectiveModelLimits(target.model).maxOutputTokens === null ? (capped ??= withOutputCap(limited, DEFAULT_MAX_OUTPUT_TOKENS)) : limited;
}
