import { isIP } from 'node:net';
import { GatewayError } from './errors.ts';
import { isPublicAddress } from './public-address.ts';
import { MOCK_BASE_URL, MOCK_PROVIDER } from './provider-catalog.ts';

function invalidBaseUrl(message: string): GatewayError {
  return new GatewayError('invalid_request', message, { code: 'invalid_base_url', param: 'base_url' });
}

/**
 * Hosts a provider key must never be sent to: names that mean this machine or a private network, and any IP
 * address that is not public (see isPublicAddress). Names that resolve to such addresses are caught when
 * the connection is made (the transport checks the resolved address).
 */
export function isPrivateHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.internal')) return true;
  return isIP(host) !== 0 && !isPublicAddress(host);
}

/**
 * Provider base URLs receive provider keys, so they must be https and public, unless the deployment
 * explicitly allows private ones (the local host does, for development against local fakes).
 */
export function validateProviderBaseUrl(provider: string, baseUrl: string, allowPrivate: boolean): string {
  if (provider === MOCK_PROVIDER) {
    if (baseUrl !== MOCK_BASE_URL) throw invalidBaseUrl(`The offline mock provider lives at ${MOCK_BASE_URL}.`);
    return baseUrl;
  }
  const url = validateUpstreamUrl(baseUrl, allowPrivate, { subject: 'Provider base URLs', noun: 'A base URL', credentialsInstead: "give the key as the provider's API key" });
  return url.toString().replace(/\/+$/, '');
}

/**
 * The rules of every URL the gateway sends a secret to (provider base URLs, MCP server URLs): a URL
 * without credentials, query or fragment (secrets go in headers, never in a URL that listings show),
 * https and a public host unless the deployment allows private upstreams.
 */
export function validateUpstreamUrl(rawUrl: string, allowPrivate: boolean, wording: { subject: string; noun: string; credentialsInstead: string }): URL {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw invalidBaseUrl(`"${rawUrl}" is not a URL.`);
  }
  if (url.username || url.password) throw invalidBaseUrl(`${wording.noun} must not carry credentials; ${wording.credentialsInstead}.`);
  if (url.search || url.hash) throw invalidBaseUrl(`${wording.noun} must not carry a query or fragment.`);
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:')) {
    throw invalidBaseUrl(
      allowPrivate
        ? `${wording.subject} must use https or http.`
        : `${wording.subject} must use https here; http:// is accepted only where the deployment allows private upstreams, as the local host does.`,
    );
  }
  if (!allowPrivate && isPrivateHost(url.hostname)) {
    throw invalidBaseUrl(`"${url.hostname}" is a loopback, private or link-local address; this deployment does not allow those.`);
  }
  return url;
}

/**
 * Bedrock's runtime endpoints, and nothing else under AWS's domains (anyone's API Gateway or S3 bucket is a
 * host there too): the regional and FIPS runtimes, the dual-stack ones (`api.aws`), VPC endpoints
 * (`vpce-….bedrock-runtime.<region>.vpce.amazonaws.com`), China's.
 */
const BEDROCK_RUNTIME_HOST = /^(?:vpce-[a-z0-9-]+\.)?bedrock-runtime(?:-fips)?\.[a-z]{2}(?:-[a-z]+)+-\d+\.(?:vpce\.amazonaws\.com|amazonaws\.com(?:\.cn)?|api\.aws)$/;

export function isBedrockRuntimeHost(hostname: string): boolean {
  return BEDROCK_RUNTIME_HOST.test(hostname.toLowerCase());
}
