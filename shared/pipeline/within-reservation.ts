import type { RouteTarget } from '../core/plan-route.ts';
import { effectiveModelLimits } from '../core/known-models.ts';
import { defaultOutputCapFor, type UsageAdmission } from './admit-usage.ts';
import type { GenerationEndpoint, RoutableBody } from './generation-endpoint.ts';

/**
 * The body a request goes to each target with. A prepaid reservation counts the request's output cap, else
 * the model's known largest answer, else a default (defaultOutputCapFor: admit-usage.ts), and each web
 * search tool's limit, else DEFAULT_WEB_SEARCHES_BOUND (web-search-tools.ts): a request that sets no cap,
 * to a model whose largest answer nobody told the gateway, is sent that default, and web searches without a
 * limit are held to the reserved one where the body goes natively (a translation carries no web search
 * tool, and would name the limit it added as a dropped field), or an answer beyond its reservation would
 * take the balance below zero (OpenRouter, too, caps a request by what the credit affords). Every other
 * request goes as the client sent it. Each body is made once, for the targets that take it.
 */
export function bodiesWithinReservation<Body extends RoutableBody>(
  endpoint: Pick<GenerationEndpoint<Body>, 'maxOutputTokens' | 'withOutputCap' | 'withWebSearchesLimited'>,
  body: Body,
  clientBody: Record<string, unknown>,
  admission: Pick<UsageAdmission, 'prepaid'>,
  carriesNatively: (target: RouteTarget) => boolean,
): (target: RouteTarget) => Record<string, unknown> {
  if (!admission.prepaid) return () => clientBody;
  const { withOutputCap, withWebSearchesLimited } = endpoint;
  const capsOutput = withOutputCap !== undefined && endpoint.maxOutputTokens(body) === undefined;
  const made = new Map<string, Record<string, unknown>>();
  return (target) => {
    const limitsSearches = withWebSearchesLimited !== undefined && carriesNatively(target);
    const cap = capsOutput && effectiveModelLimits(target.model).maxOutputTokens === null ? defaultOutputCapFor(target.model) : undefined;
    const key = `${limitsSearches} ${cap}`;
    let sent = made.get(key);
    if (!sent) {
      const limited = limitsSearches ? withWebSearchesLimited(clientBody) : clientBody;
      made.set(key, (sent = cap !== undefined && withOutputCap ? withOutputCap(limited, cap) : limited));
    }
    return sent;
  };
}
