import { GatewayError } from '../core/errors.ts';
import { UNIT_PRICES } from '../core/unit-prices.ts';
import { splitModelSlug, type AllowedModel, type ProjectConfig, type RateCardEntry } from '../core/project-config.ts';
import type { AdminCommand } from './admin-command.ts';
import type { AdminServices } from './admin-services.ts';
import { describeAllowedModel } from './describe-allowed-model.ts';
import { getProject, requireProject, withoutUndefined } from './project-commands.ts';
import { withCachePrices, withUnitPrices } from './ratecard-commands.ts';
import { longContextGiven, withLongContextPrices } from './long-context-commands.ts';
import { showAfterChange } from './shown-after-change.ts';

type Command<Name extends AdminCommand['command']> = Extract<AdminCommand, { command: Name }>;

/**
 * Adds a model to the allowlist, or changes its alias, prices, limits, description, upstream API or
 * reasoning mark (what is not given stays). The provider must be configured first: a model nobody can
 * serve is refused, not half-added. A model only one OpenAI API serves (`upstreamApi`) is reached through
 * it by every client.
 */
export async function allowModel(services: AdminServices, command: Command<'model.allow'>) {
  const config = await requireProject(services, command.projectId);
  const parts = splitModelSlug(command.slug);
  if (!parts) {
    throw new GatewayError('invalid_request', 'Models are named <provider>/<model>.', { code: 'invalid_model', param: 'model' });
  }
  if (!config.providers.has(parts.provider)) {
    throw new GatewayError(
      'invalid_request',
      // Said in the console and by the CLI alike: the step is named for both.
      `Provider "${parts.provider}" is not configured on "${command.projectId}": set its key first (Providers in the console, "provider set ${command.projectId} ${parts.provider}" in the CLI).`,
      { code: 'provider_not_configured', status: 409 },
    );
  }
  refuseTakenAlias(config, command);
  const existing = config.models.find((entry) => entry.slug === command.slug);
  const upstreamApi = command.upstreamApi === 'any' ? undefined : (command.upstreamApi ?? existing?.upstreamApi);
  if (upstreamApi && !config.providers.get(parts.provider)?.protocols.includes('openai-chat')) {
    throw new GatewayError('invalid_request', `--upstream-api names an OpenAI API, and "${parts.provider}" does not speak OpenAI's protocol.`, {
      code: 'upstream_api_not_served',
      param: 'upstream_api',
    });
  }
  const model: AllowedModel = {
    slug: command.slug,
    provider: parts.provider,
    model: parts.model,
    kind: command.kind ?? existing?.kind ?? 'chat',
    createdAt: existing?.createdAt ?? new Date(services.clock.now()).toISOString(),
    ...withoutUndefined({
      alias: command.alias ?? existing?.alias,
      contextLength: command.contextLength ?? existing?.contextLength,
      maxOutputTokens: command.maxOutputTokens ?? existing?.maxOutputTokens,
      description: command.description ?? existing?.description,
      upstreamApi,
      reasoning: command.reasoning === undefined ? existing?.reasoning : command.reasoning === 'auto' ? undefined : command.reasoning === 'yes',
    }),
  };
  // A project price set in part starts from what the model was billed at: the project's own price, else the organisation's.
  const billedAt = config.rates.get(command.slug) ?? (await services.projects.loadOrgRateCard()).get(command.slug);
  await services.projects.putModel(command.projectId, model, projectRate(command, billedAt));
  services.caches.projects.invalidate(command.projectId);
  return showAfterChange(() => getProject(services, command.projectId));
}

function refuseTakenAlias(config: ProjectConfig, command: Command<'model.allow'>): void {
  if (!command.alias) return;
  const clash = config.models.find((entry) => entry.slug !== command.slug && (entry.alias === command.alias || entry.slug === command.alias));
  if (clash) {
    throw new GatewayError('invalid_request', `The alias "${command.alias}" is already used by "${clash.slug}".`, {
      code: 'alias_taken',
      status: 409,
    });
  }
}

/** The project's own price when any price is given, the price billed until now filling what is not. */
function projectRate(command: Command<'model.allow'>, previous: RateCardEntry | undefined): RateCardEntry | undefined {
  const given = [
    command.inputMicrosPer1k,
    command.outputMicrosPer1k,
    command.cachedInputMicrosPer1k,
    command.cacheWriteInputMicrosPer1k,
    command.cacheWrite1hInputMicrosPer1k,
    ...UNIT_PRICES.map((price) => command[price.commandField]),
  ];
  if (given.every((price) => price === undefined) && !longContextGiven(command)) return undefined;
  return {
    slug: command.slug,
    inputPriceMicrosPer1k: command.inputMicrosPer1k ?? previous?.inputPriceMicrosPer1k ?? 0,
    outputPriceMicrosPer1k: command.outputMicrosPer1k ?? previous?.outputPriceMicrosPer1k ?? 0,
    ...withCachePrices(command, previous),
    ...withUnitPrices(command, previous),
    ...withLongContextPrices(command, previous),
  };
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
  return showAfterChange(() => getProject(services, command.projectId));
}

export async function listModels(services: AdminServices, command: Command<'model.list'>) {
  const config = await requireProject(services, command.projectId);
  const orgRates = await services.projects.loadOrgRateCard();
  const sorted = [...config.models].sort((a, b) => a.slug.localeCompare(b.slug));
  return { models: sorted.map((model) => describeAllowedModel(model, config, orgRates)) };
}
