import { GatewayError } from '../core/errors.ts';
import { bedrockRuntimeUrl } from '../core/bedrock-models.ts';
import {
  isRerankProtocol,
  PROVIDER_FAMILIES,
  providerFamilySchema,
  type AwsProviderSettings,
  type ProjectConfig,
  type ProviderFamily,
  type RerankProtocolId,
  type WireProtocolId,
} from '../core/project-config.ts';
import { knownProviders, providerRequiresApiKey, servesResponsesByDefault } from '../core/provider-catalog.ts';
import { isBedrockRuntimeHost, isPrivateHost, validateProviderBaseUrl } from '../core/validate-base-url.ts';
import type { AdminCommand } from './admin-command.ts';
import type { AdminServices } from './admin-services.ts';
import { describeProvider } from './describe-provider.ts';
import { getProject, requireProject } from './project-commands.ts';
import { showAfterChange } from './shown-after-change.ts';

type Command<Name extends AdminCommand['command']> = Extract<AdminCommand, { command: Name }>;

/**
 * Configures a provider on a project. Known providers bring their protocol and base URL; any other
 * name must state both. The key goes to the secret store only. An OpenAI-protocol provider also serves
 * the Responses API natively or not (`--responses`): given, else as before, else by default for OpenAI,
 * OpenRouter and Azure OpenAI (docs/decisions/responses-protocol.md). A Bedrock provider needs its region;
 * its calls are signed with the gateway's AWS credentials (or a profile's), unless it is given a Bedrock
 * API key (docs/decisions/bedrock.md).
 */
export async function setProvider(services: AdminServices, command: Command<'provider.set'>) {
  const config = await requireProject(services, command.projectId);
  const known = knownProviders[command.provider];
  const family = command.protocol ?? known?.family;
  const bedrock = family === 'bedrock' ? bedrockSettings(command) : undefined;
  const baseUrl = command.baseUrl ?? known?.baseUrl ?? (bedrock ? bedrockRuntimeUrl(bedrock.region) : undefined);
  if (!family || !baseUrl) {
    // Only what is missing: the protocol, the base URL (a Bedrock provider's region), or both.
    const missing = [
      ...(family ? [] : [`--protocol (${providerFamilySchema.options.join(', ')})`]),
      ...(command.baseUrl ? [] : [family ? '--base-url' : '--base-url (bedrock: --region)']),
    ].join(' and ');
    throw new GatewayError('invalid_request', `"${command.provider}" is not a known provider: give its ${missing}.`, { code: 'unknown_provider', param: family ? 'base_url' : 'provider' });
  }
  if (!bedrock && (command.region || command.profile)) {
    throw new GatewayError('invalid_request', `--region and --profile are for Bedrock providers; "${command.provider}" speaks the ${family} protocol.`, {
      code: 'bedrock_only_option',
      param: command.region ? 'region' : 'profile',
    });
  }
  const given = validateProviderBaseUrl(command.provider, baseUrl, services.allowPrivateUpstreams);
  if (bedrock && !command.apiKey) requireBedrockEndpoint(command.provider, given, services.allowPrivateUpstreams);
  const validatedUrl = family === 'anthropic' ? anthropicApiRoot(given) : given;
  const previous = config.providers.get(command.provider);
  // Set again without a key, a provider keeps its stored key, but only on the host it was given for: nobody
  // can send a stored key, which no answer shows, to a host of their choosing without knowing it.
  const keepsStoredKey = !bedrock && !command.apiKey && previous?.hasApiKey === true && sameHost(previous.baseUrl, validatedUrl);
  if (!bedrock && providerRequiresApiKey(command.provider) && !command.apiKey && !keepsStoredKey) {
    throw missingApiKey(command.provider, previous?.hasApiKey ? previous.baseUrl : undefined, validatedUrl);
  }
  const protocols = providerProtocols(config, command, family, validatedUrl);
  if (command.apiKey) await services.secrets.putApiKey(command.projectId, command.provider, command.apiKey);
  // A Bedrock provider set again without its API key signs its calls from now on: the old key goes.
  else if (bedrock && config.providers.get(command.provider)?.hasApiKey) await services.secrets.deleteApiKey(command.projectId, command.provider);
  await services.projects.putProvider(command.projectId, {
    provider: command.provider,
    ...PROVIDER_FAMILIES[family],
    protocols,
    // A Bedrock API key is a bearer token; without one, the gateway's AWS credentials sign.
    ...(bedrock && command.apiKey ? { auth: 'bearer' as const } : {}),
    baseUrl: validatedUrl,
    hasApiKey: command.apiKey !== undefined || keepsStoredKey,
    ...(bedrock ? { aws: bedrock } : {}),
    updatedAt: new Date(services.clock.now()).toISOString(),
  });
  services.caches.projects.invalidate(command.projectId);
  services.caches.providerKeys.invalidate(`${command.projectId}/${command.provider}`);
  return showAfterChange(() => getProject(services, command.projectId));
}

/**
 * An Anthropic-protocol provider's API root, below which the gateway calls `/messages`. Anthropic's SDKs and
 * the Anthropic-compatible services publish their base URL without `/v1` (`ANTHROPIC_BASE_URL`,
 * `https://api.deepseek.com/anthropic`) and call `/v1/messages` below it, so a base URL given without it
 * gets it, as LiteLLM adds it: pasted as published, it would answer every request 404.
 */
export function anthropicApiRoot(baseUrl: string): string {
  const url = new URL(baseUrl);
  if (/\/v1\/?$/.test(url.pathname)) return baseUrl;
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/v1`;
  return url.toString().replace(/\/+$/, '');
}

/** Worded for the CLI and the console alike: neither names the other's field. */
function missingApiKey(provider: string, storedKeyUrl: string | undefined, baseUrl: string): GatewayError {
  const message = storedKeyUrl
    ? `Provider "${provider}" moves to ${hostOf(baseUrl)}: give its API key again (the stored key is sent only to ${hostOf(storedKeyUrl)}).`
    : `Provider "${provider}" needs an API key.`;
  return new GatewayError('invalid_request', message, { code: 'missing_api_key', param: 'api_key' });
}

/** Scheme, host and port: `mock://` URLs have no origin of their own, so `URL.origin` would call them all equal. */
function hostOf(url: string): string {
  const parsed = new URL(url);
  return `${parsed.protocol}//${parsed.host}`;
}

function sameHost(a: string, b: string): boolean {
  return hostOf(a) === hostOf(b);
}


/**
 * A Bedrock provider signed with the gateway's AWS credentials sends every request to its base URL with the
 * role's access key id, session token and signature: only Bedrock's own endpoints may receive them (a private
 * one too where the deployment allows private upstreams: the local host's fakes). With a Bedrock API key
 * given instead, the key goes there, as every provider's does.
 */
function requireBedrockEndpoint(provider: string, baseUrl: string, allowPrivate: boolean): void {
  const host = new URL(baseUrl).hostname.toLowerCase();
  if (isBedrockRuntimeHost(host) || (allowPrivate && isPrivateHost(host))) return;
  throw new GatewayError(
    'invalid_request',
    `Bedrock provider "${provider}" is called with the gateway's AWS credentials, which go only to Bedrock's runtime endpoints (bedrock-runtime[-fips].<region>.amazonaws.com, its api.aws and VPC endpoints); "${host}" is not one. Give a Bedrock API key (--api-key) to call another host.`,
    { code: 'invalid_base_url', param: 'base_url' },
  );
}

/** A Bedrock provider's region (required: it names the endpoint and the signing region) and profile. */
function bedrockSettings(command: Command<'provider.set'>): AwsProviderSettings {
  if (!command.region) {
    throw new GatewayError('invalid_request', `Bedrock provider "${command.provider}" needs --region (e.g. us-east-1): its runtime endpoint and signing region.`, {
      code: 'missing_region',
      param: 'region',
    });
  }
  return { region: command.region, ...(command.profile ? { profile: command.profile } : {}) };
}

function providerProtocols(config: ProjectConfig, command: Command<'provider.set'>, family: ProviderFamily, baseUrl: string): WireProtocolId[] {
  const protocols = PROVIDER_FAMILIES[family].protocols;
  if (family !== 'openai') {
    const speaks = family === 'bedrock' ? "Bedrock's runtime protocols" : family === 'anthropic' ? "Anthropic's protocol" : `${family}'s rerank API`;
    if (command.responses === 'native') {
      throw new GatewayError('invalid_request', `Provider "${command.provider}" speaks ${speaks}, which has no Responses API: --responses native needs an OpenAI-protocol provider.`, {
        code: 'responses_not_served',
        param: 'responses',
      });
    }
    if (command.rerank !== undefined && command.rerank !== 'none') {
      throw new GatewayError('invalid_request', `Provider "${command.provider}" speaks ${speaks}: --rerank applies to OpenAI-protocol providers only.`, {
        code: 'rerank_not_served',
        param: 'rerank',
      });
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
  return showAfterChange(() => getProject(services, command.projectId));
}
