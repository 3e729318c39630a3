import { GatewayError } from './errors.ts';
import type { AllowedModel, ProjectConfig, ProviderConfig } from './project-config.ts';
import { providerRequiresApiKey } from './provider-catalog.ts';

/** An allowlisted model together with the provider configuration that serves it. */
export interface ModelTarget {
  model: AllowedModel;
  provider: ProviderConfig;
}

function modelNotAllowed(requested: string): GatewayError {
  return new GatewayError(
    'permission',
    `The model "${requested}" is not allowed for this project. GET /v1/models lists the models it may use.`,
    { code: 'model_not_allowed', param: 'model' },
  );
}

/**
 * Finds the allowlist entry a client named: by provider-prefixed slug, by project alias, or by bare
 * model id when exactly one entry carries it.
 */
export function findAllowedModel(requested: string, models: readonly AllowedModel[]): AllowedModel {
  const bySlug = models.find((entry) => entry.slug === requested);
  if (bySlug) return bySlug;
  const byAlias = models.find((entry) => entry.alias === requested);
  if (byAlias) return byAlias;

  const byBareId = models.filter((entry) => entry.model === requested);
  if (byBareId.length === 1 && byBareId[0]) return byBareId[0];
  if (byBareId.length > 1) {
    const slugs = byBareId.map((entry) => `"${entry.slug}"`).join(', ');
    throw new GatewayError(
      'invalid_request',
      `The model "${requested}" is offered by several providers of this project; name one of ${slugs}.`,
      { code: 'ambiguous_model', param: 'model' },
    );
  }
  throw modelNotAllowed(requested);
}

/** Resolves the client's model to a routable target: allowlisted, with a configured provider and credential. */
export function resolveModelTarget(requested: string, config: ProjectConfig): ModelTarget {
  const model = findAllowedModel(requested, config.models);
  const provider = config.providers.get(model.provider);
  if (!provider || (providerRequiresApiKey(model.provider) && !provider.hasApiKey)) {
    throw new GatewayError(
      'invalid_request',
      `No routable model: "${model.slug}" is allowed, but the project has no credential for provider "${model.provider}".`,
      { code: 'no_routable_model', param: 'model' },
    );
  }
  return { model, provider };
}
