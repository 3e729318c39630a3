import { GatewayError } from '../core/errors.ts';
import { isRerankProtocol, PROVIDER_FAMILIES, providerFamilySchema, type ProjectConfig, type ProviderFamily, type RerankProtocolId, type WireProtocolId } from '../core/project-config.ts';
import { knownProviders, providerRequiresApiKey, servesResponsesByDefault } from '../core/provider-catalog.ts';
import { validateProviderBaseUrl } from '../core/validate-base-url.ts';
import type { AdminCommand } from './admin-command.ts';
import type { AdminServices } from './admin-services.ts';
import { describeProvider } from './describe-provider.ts';
import { getProject, requireProject } from './project-commands.ts';

type Command<Name extends AdminCommand['command']> = Extract<AdminCommand, { command: Name }>;

/**
 * Configures a provider on a project. Known providers bring their protocol and base URL; any other
 * name must state both. The key goes to the secret store only. An OpenAI-protocol provider also serves
 * the Responses API natively or not (`--responses`): given, else as before, else by default for OpenAI,
 * OpenRouter and Azure OpenAI (docs/decisions/responses-protocol.md).
 */
export async function setProvider(services: AdminServices, command: Command<'provider.set'>) {
  const config = await requireProject(services, command.projectId);
  const known = knownProviders[command.provider];
  const family = command.protocol ?? known?.family;
  const baseUrl = command.baseUrl ?? known?.baseUrl;
  if (!family || !baseUrl) {
    throw new GatewayError(
      'invalid_request',
      `"${command.provider}" is not a known provider: give its --protocol (${providerFamilySchema.options.join(', ')}) and --base-url.`,
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
  const protocols = providerProtocols(config, command, family, validatedUrl);
  if (command.apiKey) await services.secrets.putApiKey(command.projectId, command.provider, command.apiKey);
  await services.projects.putProvider(command.projectId, {
    provider: command.provider,
    ...PROVIDER_FAMILIES[family],
    protocols,
    baseUrl: validatedUrl,
    hasApiKey: command.apiKey !== undefined,
    updatedAt: new Date(services.clock.now()).toISOString(),
  });
  services.caches.projects.invalidate(command.projectId);
  services.caches.providerKeys.invalidate(`${command.projectId}/${command.provider}`);
  return getProject(services, command.projectId);
}

function providerProtocols(config: ProjectConfig, command: Command<'provider.set'>, family: ProviderFamily, baseUrl: string): WireProtocolId[] {
  const protocols = PROVIDER_FAMILIES[family].protocols;
  if (family !== 'openai') {
    for (const [flag, given] of [['responses', command.responses === 'native'], ['rerank', command.rerank !== undefined && command.rerank !== 'none']] as const) {
      if (given) {
        throw new GatewayError('invalid_request', `Provider "${command.provider}" speaks the ${family} protocol: --${flag} applies to OpenAI-protocol providers only.`, {
          code: flag === 'responses' ? 'responses_not_served' : 'rerank_not_served',
          param: flag,
        });
      }
    }
    return protocols;
  }
  const previous = config.providers.get(command.provider);
  const previously = previous?.protocols.includes('openai-chat') ? previous.protocols.includes('openai-responses') : undefined;
  const native = command.responses ? command.responses === 'native' : (previously ?? servesResponsesByDefault(command.provider, baseUrl));
  const rerank = rerankDialect(command, previous?.protocols);
  return [...protocols, ...(native ? (['openai-responses'] as const) : []), ...(rerank ? [rerank] : [])];
}

/** The rerank dialect an OpenAI-protocol provider serves: as given (`none`: none), else as before, else the known provider's. */
function rerankDialect(command: Command<'provider.set'>, previous: readonly WireProtocolId[] | undefined): RerankProtocolId | undefined {
  if (command.rerank) return command.rerank === 'none' ? undefined : (`${command.rerank}-rerank` as const);
  if (previous) return previous.find(isRerankProtocol);
  return knownProviders[command.provider]?.reranks;
}

export async function listProviders(services: AdminServices, command: Command<'provider.list'>) {
  const config = await requireProject(services, command.projectId);
  const providers = [...config.providers.values()].sort((a, b) => a.provider.localeCompare(b.provider));
  return {
    providers: providers.map((provider) => ({
      ...describeProvider(provider),
      models: config.models.filter((model) => model.provider === provider.provider).length,
      updated_at: provider.updatedAt,
    })),
  };
}

/**
 * Removes a provider and deletes its key. Refused while models of the provider are on the allowlist:
 * they would stop working, so they are removed first (`model remove`), on purpose.
 */
export async function removeProvider(services: AdminServices, command: Command<'provider.remove'>) {
  const config = await requireProject(services, command.projectId);
  const inUse = config.models.filter((model) => model.provider === command.provider).map((model) => model.slug);
  if (inUse.length > 0) {
    throw new GatewayError(
      'invalid_request',
      `"${command.projectId}" still allows ${inUse.join(', ')} from "${command.provider}": remove ${inUse.length > 1 ? 'them' : 'it'} first with "model remove".`,
      { code: 'provider_in_use', status: 409 },
    );
  }
  const removed = await services.projects.removeProvider(command.projectId, command.provider);
  // Also when the record was already gone: a key left behind by an interrupted removal is deleted now.
  await services.secrets.deleteApiKey(command.projectId, command.provider);
  services.caches.projects.invalidate(command.projectId);
  services.caches.providerKeys.invalidate(`${command.projectId}/${command.provider}`);
  if (!removed) {
    throw new GatewayError('not_found', `"${command.provider}" is not configured on "${command.projectId}".`, { code: 'provider_not_found' });
  }
  return getProject(services, command.projectId);
}
