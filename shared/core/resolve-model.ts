import { closestName } from './closest-name.ts';
import { GatewayError } from './errors.ts';
import { claudeOtherName, isClaudeSnapshot } from './known-models.ts';
import { splitModelSlug, type AllowedModel } from './project-config.ts';

/**
 * A model the allowlist does not hold, with the name on it the client most likely meant, if one stands out:
 * 404, as OpenAI and Anthropic answer a model the caller may not use ("does not exist or you do not have
 * access to it"), so clients say so (Claude Code: "It may not exist or you may not have access to it. Run
 * /model…", where a 403 read "Failed to authenticate" and sent the user to /login).
 */
export function modelNotAllowed(requested: string, models: readonly AllowedModel[]): GatewayError {
  const names = models.flatMap((entry) => [entry.slug, ...(entry.alias ? [entry.alias] : []), bareModelId(entry)]);
  const meant = closestName(requested, names);
  return new GatewayError(
    'not_found',
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
 * Finds the allowlist entry a client named: by provider-prefixed slug, by project alias, by bare model id
 * when the entries carrying it are all the same model (then the model's own provider first), or by the
 * other name of a Claude model (findByClaudeOtherName).
 */
export function findAllowedModel(requested: string, models: readonly AllowedModel[]): AllowedModel {
  const bySlug = models.find((entry) => entry.slug === requested);
  if (bySlug) return bySlug;
  const byAlias = models.find((entry) => entry.alias === requested);
  if (byAlias) return byAlias;

  const byBareId = models.filter((entry) => entry.model === requested || bareModelId(entry) === requested);
  if (byBareId.length > 0) return oneModelOf(requested, byBareId);
  const byOtherName = findByClaudeOtherName(requested, models);
  if (byOtherName) return byOtherName;
  throw modelNotAllowed(requested, models);
}

/** The entry of the one model the entries carry (its own provider's first), or 400 when they are several models. */
function oneModelOf(requested: string, entries: readonly AllowedModel[]): AllowedModel {
  const canonicals = new Set(entries.map(canonicalModel));
  if (canonicals.size === 1) {
    return entries.find((entry) => entry.slug === canonicalModel(entry)) ?? (entries[0] as AllowedModel);
  }
  const slugs = entries.map((entry) => `"${entry.slug}"`).join(', ');
  throw new GatewayError(
    'invalid_request',
    `The model "${requested}" is offered by several providers of this project; name one of ${slugs}.`,
    { code: 'ambiguous_model', param: 'model' },
  );
}

/**
 * A Claude model named by its other name: a dated snapshot (`claude-haiku-4-5-20251001`, which Claude Code
 * sends) finds the entry of its undated alias and the other way round, bare or after its provider
 * (`anthropic/…`), priced as that entry. The upstream gets a dated id either way: the client's snapshot as
 * sent, or the entry's own when the client sent the alias, so an allowlist of one snapshot never reaches
 * another one the alias moves on to. Two snapshots are never matched with each other.
 */
function findByClaudeOtherName(requested: string, models: readonly AllowedModel[]): AllowedModel | undefined {
  const prefixed = splitModelSlug(requested);
  const [provider, model] = prefixed && claudeOtherName(prefixed.model) ? [prefixed.provider, prefixed.model] : [undefined, requested];
  const other = claudeOtherName(model);
  if (!other) return undefined;
  const entries = models.filter((entry) => entry.model === other && (provider === undefined || entry.provider === provider));
  if (entries.length === 0) return undefined;
  const entry = oneModelOf(requested, entries);
  return isClaudeSnapshot(model) ? { ...entry, model } : entry;
}

/** The entry a client named, followed by the other providers' entries of the same model. */
export function findModelGroup(requested: string, models: readonly AllowedModel[]): AllowedModel[] {
  const named = findAllowedModel(requested, models);
  const canonical = canonicalModel(named);
  // By slug: a Claude model named by its other name is a copy of its entry (findByClaudeOtherName).
  return [named, ...models.filter((entry) => entry.slug !== named.slug && canonicalModel(entry) === canonical)];
}
