import { GatewayError } from '../core/errors.ts';
import { PROVIDER_FAMILIES, splitModelSlug } from '../core/project-config.ts';
import { knownProviders, providerRequiresApiKey } from '../core/provider-catalog.ts';
import { validateProviderBaseUrl } from '../core/validate-base-url.ts';
import type { AdminCommand } from './admin-command.ts';
import type { AdminServices } from './admin-services.ts';
import { getProject, requireProject } from './project-commands.ts';

type Command<Name extends AdminCommand['command']> = Extract<AdminCommand, { command: Name }>;

/**
 * Configures a provider on a project. Known providers bring their protocol and base URL; any other
 * name must state both. The key goes to the secret store only.
 */
export async function setProvider(services: AdminServices, command: Command<'provider.set'>) {
  await requireProject(services, command.projectId);
  const known = knownProviders[command.provider];
  const family = command.protocol ?? known?.family;
  const baseUrl = command.baseUrl ?? known?.baseUrl;
  if (!family || !baseUrl) {
    throw new GatewayError(
      'invalid_request',
      `"${command.provider}" is not a known provider: give its --protocol (openai or anthropic) and --base-url.`,
      { code: 'unknown_provider', param: 'provider' },
    );
  }
  const requiresKey = providerRequiresApiKey(command.provider);
  if (requiresKey && !command.apiKey) {
    throw new GatewayError('invalid_request', `Provider "${command.provider}" needs --api-key.`, {
      code: 'missing_api_key',
      param: 'api_key',
    });
  }
  const validatedUrl = validateProviderBaseUrl(command.provider, baseUrl, services.allowPrivateUpstreams);
  if (command.apiKey) await services.secrets.putApiKey(command.projectId, command.provider, command.apiKey);
  await services.projects.putProvider(command.projectId, {
    provider: command.provider,
    ...PROVIDER_FAMILIES[family],
    baseUrl: validatedUrl,
    hasApiKey: command.apiKey !== undefined,
    updatedAt: new Date(services.clock.now()).toISOString(),
  });
  services.caches.projects.invalidate(command.projectId);
  services.caches.providerKeys.invalidate(`${command.projectId}/${command.provider}`);
  return getProject(services, command.projectId);
}

/** Adds a model to the allowlist (or updates its alias and project prices). */
export async function allowModel(services: AdminServices, command: Command<'model.allow'>) {
  const config = await requireProject(services, command.projectId);
  const parts = splitModelSlug(command.slug);
  if (!parts) {
    throw new GatewayError('invalid_request', 'Models are named <provider>/<model>.', { code: 'invalid_model', param: 'model' });
  }
  if (command.alias) {
    const clash = config.models.find(
      (entry) => entry.slug !== command.slug && (entry.alias === command.alias || entry.slug === command.alias),
    );
    if (clash) {
      throw new GatewayError('invalid_request', `The alias "${command.alias}" is already used by "${clash.slug}".`, {
        code: 'alias_taken',
        status: 409,
      });
    }
  }
  const hasPrice =
    command.inputMicrosPer1k !== undefined ||
    command.outputMicrosPer1k !== undefined ||
    command.cachedInputMicrosPer1k !== undefined ||
    command.cacheWriteInputMicrosPer1k !== undefined;
  const previousRate = config.rates.get(command.slug);
  const existing = config.models.find((entry) => entry.slug === command.slug);
  await services.projects.putModel(
    command.projectId,
    {
      slug: command.slug,
      provider: parts.provider,
      model: parts.model,
      ...(command.alias ?? existing?.alias ? { alias: command.alias ?? existing?.alias } : {}),
      kind: command.kind ?? existing?.kind ?? 'chat',
      createdAt: existing?.createdAt ?? new Date(services.clock.now()).toISOString(),
    },
    hasPrice
      ? {
          slug: command.slug,
          inputPriceMicrosPer1k: command.inputMicrosPer1k ?? previousRate?.inputPriceMicrosPer1k ?? 0,
          outputPriceMicrosPer1k: command.outputMicrosPer1k ?? previousRate?.outputPriceMicrosPer1k ?? 0,
          ...withCachePrices(
            command.cachedInputMicrosPer1k ?? previousRate?.cachedInputPriceMicrosPer1k,
            command.cacheWriteInputMicrosPer1k ?? previousRate?.cacheWriteInputPriceMicrosPer1k,
          ),
        }
      : undefined,
  );
  services.caches.projects.invalidate(command.projectId);
  const project = await getProject(services, command.projectId);
  const routable = config.providers.has(parts.provider);
  return { ...project, ...(routable ? {} : { warning: `Provider "${parts.provider}" is not configured on this project yet: run "provider set".` }) };
}

export async function removeModel(services: AdminServices, command: Command<'model.remove'>) {
  await requireProject(services, command.projectId);
  const removed = await services.projects.removeModel(command.projectId, command.slug);
  if (!removed) {
    throw new GatewayError('not_found', `"${command.slug}" is not on the allowlist of "${command.projectId}".`, {
      code: 'model_not_found',
    });
  }
  services.caches.projects.invalidate(command.projectId);
  return getProject(services, command.projectId);
}

/** Organisation-level default prices; a project's own prices (set by `model allow`) win. */
export async function setOrgRate(services: AdminServices, command: Command<'ratecard.set'>) {
  await services.projects.putOrgRate({
    slug: command.slug,
    inputPriceMicrosPer1k: command.inputMicrosPer1k,
    outputPriceMicrosPer1k: command.outputMicrosPer1k,
    ...withCachePrices(command.cachedInputMicrosPer1k, command.cacheWriteInputMicrosPer1k),
  });
  services.caches.orgRates.clear();
  return listOrgRates(services);
}

export async function listOrgRates(services: AdminServices) {
  const card = await services.projects.loadOrgRateCard();
  return {
    rates: [...card.values()].map((rate) => ({
      slug: rate.slug,
      input_price_micros_per_1k: rate.inputPriceMicrosPer1k,
      output_price_micros_per_1k: rate.outputPriceMicrosPer1k,
      cached_input_price_micros_per_1k: rate.cachedInputPriceMicrosPer1k ?? null,
      cache_write_input_price_micros_per_1k: rate.cacheWriteInputPriceMicrosPer1k ?? null,
    })),
  };
}

/** The optional prices of cache reads and cache writes, only when set. */
function withCachePrices(cachedInput: number | undefined, cacheWrite: number | undefined) {
  return {
    ...(cachedInput === undefined ? {} : { cachedInputPriceMicrosPer1k: cachedInput }),
    ...(cacheWrite === undefined ? {} : { cacheWriteInputPriceMicrosPer1k: cacheWrite }),
  };
}
