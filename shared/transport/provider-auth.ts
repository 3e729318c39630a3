import { GatewayError } from '../core/errors.ts';
import type { AwsCredentials, AwsCredentialSource } from '../core/ports.ts';
import type { AwsCallSigner } from './sign-aws-call.ts';
import type { ProviderConfig } from '../core/project-config.ts';
import { loadOnFirstUse } from '../core/load-on-first-use.ts';
import { isBedrockRuntimeHost, isPrivateHost } from '../core/validate-base-url.ts';

/** One upstream call as the credential step sees it (a request signer needs all of it). */
export interface OutgoingCall {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string | Uint8Array;
}

/** The signing name of Bedrock's runtime, the one AWS service the gateway signs for. */
const BEDROCK_SIGNING_SERVICE = 'bedrock';

/** The AWS SDK's signer, loaded by the first signed call: a function without Bedrock never pays its import. */
const awsSigner = loadOnFirstUse(() => import('./sign-aws-call.ts'));

/**
 * One signer per credential source, provider, region and profile, kept between calls: the signer keeps the
 * signing key it derived for the day's credentials, so a call does not derive it again. The credentials
 * are asked for at every signature (the chain caches them and renews them before they expire).
 */
const signers = new WeakMap<AwsCredentialSource, Map<string, AwsCallSigner>>();

/**
 * Adds the provider's credential the way the provider takes it: a bearer token, Anthropic's `x-api-key`,
 * an AWS Signature V4 made with the gateway's own AWS credentials (Bedrock), or nothing (the offline mock;
 * a provider without a stored key). The transport calls this for every attempt, after the request is
 * final, since a signature covers the body.
 */
export async function authorizeCall(
  provider: Pick<ProviderConfig, 'provider' | 'auth' | 'aws'>,
  apiKey: string | undefined,
  call: OutgoingCall,
  aws: AwsCredentialSource,
): Promise<Record<string, string>> {
  if (provider.auth === 'aws-sigv4') return signWithGatewayCredentials(provider, call, aws);
  if (!apiKey) return call.headers;
  switch (provider.auth) {
    case 'bearer':
      return { ...call.headers, authorization: `Bearer ${apiKey}` };
    case 'x-api-key':
      return { ...call.headers, 'x-api-key': apiKey };
    case 'none':
      return call.headers;
  }
}

async function signWithGatewayCredentials(provider: Pick<ProviderConfig, 'provider' | 'aws'>, call: OutgoingCall, aws: AwsCredentialSource): Promise<Record<string, string>> {
  const settings = provider.aws;
  // The role's key id, session token and signature go to Bedrock's own endpoints only (a provider stored
  // before `provider set` held to that, with any host under amazonaws.com, is refused here); a private host
  // reaches nothing where the deployment allows no private upstreams (the transport refuses it).
  const host = new URL(call.url).hostname;
  if (!isBedrockRuntimeHost(host) && !isPrivateHost(host)) {
    throw new GatewayError('upstream', `Provider "${provider.provider}" is signed with the gateway's AWS credentials, which go only to Bedrock's runtime endpoints, not "${host}": set it again with "provider set" (a Bedrock endpoint, or --api-key).`, {
      code: 'provider_misconfigured',
    });
  }
  if (!settings) {
    throw new GatewayError('upstream', `Provider "${provider.provider}" signs its calls with AWS credentials but has no region: set it again with --region.`, {
      code: 'provider_misconfigured',
    });
  }
  let bySettings = signers.get(aws);
  if (!bySettings) signers.set(aws, (bySettings = new Map()));
  const id = `${provider.provider}\n${settings.region}\n${settings.profile ?? ''}`;
  let sign = bySettings.get(id);
  if (!sign) {
    const credentials = async (): Promise<AwsCredentials> => {
      try {
        return await aws.credentials(settings.profile);
      } catch (cause) {
        const source = settings.profile ? `the AWS profile "${settings.profile}"` : "the gateway's AWS credential chain";
        throw new GatewayError('upstream', `Provider "${provider.provider}": no AWS credentials from ${source}.`, { code: 'provider_credentials_unavailable', cause });
      }
    };
    sign = (await awsSigner()).createAwsSigner({ service: BEDROCK_SIGNING_SERVICE, region: settings.region, credentials });
    bySettings.set(id, sign);
  }
  return sign(call);
}
