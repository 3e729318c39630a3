import { closestName } from './closest-name.ts';
import { GatewayError } from './errors.ts';
import type { AllowedModel } from './project-config.ts';

/** A model the allowlist does not hold, with the name on it the client most likely meant, if one stands out. */
export function modelNotAllowed(requested: string, models: readonly AllowedModel[]): GatewayError {
  const names = models.flatMap((entry) => [entry.slug, ...(entry.alias ? [entry.alias] : []), bareModelId(entry)]);
  const meant = closestName(requested, names);
  return new GatewayError(
    'permission',
    `The model "${requested}" is not allowed for this project.${meant ? ` Did you mean "${meant}"?` : ''} GET /v1/models lists the models it may use.`,
    { code: 'model_not_allowed', param: 'model' },
  );
}

/**
 * The model an entry serves, whoever serves it: `openrouter/openai/gpt-4o-mini` and `openai/gpt-4o-mini`
 * are both `openai/gpt-4o-mini`, so they are the same model under two providers.
 */
export function canonicalModel(entry: AllowedModel): string {
  return entry.model.includes('/') ? entry.model : entry.slug;
}

function bareModelId(entry: AllowedModel): string {
  const canonical = canonicalModel(entry);
  return canonical.slice(canonical.lastIndexOf('/') + 1);
}

/**
 * Finds the allowlist entry a client named: by provider-prefixed slug, by project alias, or by bare
 * model id when the entries carrying it are all the same model (then the model's own provider first).
 */
export function findAllowedModel(requested: string, models: readonly AllowedModel[]): AllowedModel {
  const bySlug = models.find((entry) => entry.slug === requested);
  if (bySlug) return bySlug;
  const byAlias = models.find((entry) => entry.alias === requested);
  if (byAlias) return byAlias;

  const byBareId = models.filter((entry) => entry.model === requested || bareModelId(entry) === requested);
  const canonicals = new Set(byBareId.map(canonicalModel));
  if (canonicals.size === 1) {
    return byBareId.find((entry) => entry.slug === canonicalModel(entry)) ?? (byBareId[0] as AllowedModel);
  }
  if (canonicals.size > 1) {
    const slugs = byBareId.map((entry) => `"${entry.slug}"`).join(', ');
    throw new GatewayError(
      'invalid_request',
      `The model "${requested}" is offered by several providers of this project; name one of ${slugs}.`,
      { code: 'ambiguous_model', param: 'model' },
    );
  }
  throw modelNotAllowed(requested, models);
}

/** The entry a client named, followed by the other providers' entries of the same model. */
export function findModelGroup(requested: string, models: readonly AllowedModel[]): AllowedModel[] {
  const named = findAllowedModel(requested, models);
  const canonical = canonicalModel(named);
  return [named, ...models.filter((entry) => entry !== named && canonicalModel(entry) === canonical)];
}
