import { GatewayError } from '../core/errors.ts';
import { asJsonObject } from '../core/json-object.ts';
import { findModelGroup } from '../core/resolve-model.ts';
import { readStore } from '../pipeline/admit-request.ts';
import type { RoutableBody, RoutingContext } from '../pipeline/generation-endpoint.ts';

/**
 * A request continuing a stored response (`previous_response_id`) is routed to the provider that stored
 * it: `provider.only` names that provider. The response must be the project's own (another project's is
 * "not found", as a missing one); an id the gateway has not recorded (yet) is left to the named model's
 * provider, which knows its own ids. A target that would translate refuses the field (the gateway keeps no
 * conversation state: docs/decisions/responses-protocol.md). Every route that takes a Responses body asks
 * this, the editor's too: one that did not would hand another project's response id to the provider.
 */
export async function routeToStoredResponse<Body extends RoutableBody>(body: Body, { config, services }: RoutingContext): Promise<Body> {
  const previous = body.previous_response_id;
  if (typeof previous !== 'string' || previous === '') return body;
  const owner = await readStore(() => services.generations.findStoredResponse(previous));
  if (!owner) return body;
  if (owner.projectId !== config.project.projectId) {
    throw new GatewayError('not_found', `Previous response with id "${previous}" not found.`, { code: 'previous_response_not_found', param: 'previous_response_id' });
  }
  const preferences = asJsonObject(body.provider) ?? {};
  const only = Array.isArray(preferences.only) ? (preferences.only as unknown[]) : undefined;
  if ((only && !only.includes(owner.provider)) || !servedBy(body.model, owner.provider, config)) {
    throw new GatewayError(
      'invalid_request',
      `The previous response "${previous}" is stored by provider "${owner.provider}", which does not serve "${body.model}" for this request. Name a model of "${owner.provider}" (it made the previous response with "${owner.model}"), or send the whole conversation in "input".`,
      { code: 'previous_response_provider_mismatch', param: 'previous_response_id' },
    );
  }
  return { ...body, provider: { ...preferences, only: [owner.provider] } };
}

/** Whether the named model (or another provider's entry for the same model) is served by the provider; an unknown model is planning's to report. */
function servedBy(model: string, provider: string, config: RoutingContext['config']): boolean {
  try {
    return findModelGroup(model, config.models).some((entry) => entry.provider === provider);
  } catch {
    return true;
  }
}
