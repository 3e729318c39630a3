import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AwsCredentialSource } from '../../shared/core/ports.ts';
import type { ProviderConfig } from '../../shared/core/project-config.ts';
import { createNodeHttpFetch } from '../../shared/transport/node-http-fetch.ts';
import { authorizeCall } from '../../shared/transport/provider-auth.ts';
import { sendBedrockJson, startFakeBedrockRuntime, type FakeBedrockRuntime } from '../support/fake-bedrock-runtime.ts';

const KEYS = {
  AKIDROLE0000EXAMPLE: { secretAccessKey: 'role-secret-access-key-0123456789', sessionToken: 'role-session-token-0123456789' },
  AKIDPROFILE00EXAMPLE: { secretAccessKey: 'profile-secret-access-key-0123456789' },
};

/** A credential source with a role's temporary credentials by default and one named profile. */
const credentialSource: AwsCredentialSource & { asked: Array<string | undefined> } = {
  asked: [],
  async credentials(profile) {
    this.asked.push(profile);
    if (profile === 'dev') return { accessKeyId: 'AKIDPROFILE00EXAMPLE', secretAccessKey: KEYS.AKIDPROFILE00EXAMPLE.secretAccessKey };
    if (profile !== undefined) throw new Error(`no profile ${profile}`);
    return { accessKeyId: 'AKIDROLE0000EXAMPLE', ...KEYS.AKIDROLE0000EXAMPLE };
  },
};

let bedrock: FakeBedrockRuntime;
const fetch = createNodeHttpFetch({ allowPrivateAddresses: true });

beforeAll(async () => {
  bedrock = await startFakeBedrockRuntime({ region: 'us-east-1', credentials: KEYS, apiKeys: ['bedrock-api-key-0123456789'] });
  bedrock.answerWith((_request, response) => sendBedrockJson(response, { ok: true }));
});
afterAll(() => bedrock?.close());

function provider(aws: ProviderConfig['aws'], auth: ProviderConfig['auth'] = 'aws-sigv4'): Pick<ProviderConfig, 'provider' | 'auth' | 'aws'> {
  return { provider: 'bedrock', auth, ...(aws ? { aws } : {}) };
}

async function send(target: Pick<ProviderConfig, 'provider' | 'auth' | 'aws'>, options: { apiKey?: string; tamper?: (body: string) => string; source?: AwsCredentialSource } = {}) {
  const url = `${bedrock.baseUrl}/model/${encodeURIComponent('us.anthropic.claude-haiku-4-5-20251001-v1:0')}/invoke`;
  const body = JSON.stringify({ anthropic_version: 'bedrock-2023-05-31', max_tokens: 5, messages: [{ role: 'user', content: 'Hi' }] });
  const headers = await authorizeCall(target, options.apiKey, { url, method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body }, options.source ?? credentialSource);
  return fetch(url, { method: 'POST', headers, body: options.tamper ? options.tamper(body) : body });
}

describe('authorizeCall for an AWS-signed provider', () => {
  it('signs for Bedrock’s runtime endpoints only: a provider stored with another host under amazonaws.com gets no signature', async () => {
    const call = (url: string) => ({ url, method: 'POST', headers: {}, body: '{}' });
    const refused = await authorizeCall(provider({ region: 'us-east-1' }), undefined, call('https://abc123.execute-api.us-east-1.amazonaws.com/model/x/invoke'), credentialSource).catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: 'provider_misconfigured', message: expect.stringContaining('abc123.execute-api.us-east-1.amazonaws.com') });
    const signed = await authorizeCall(provider({ region: 'us-east-1' }), undefined, call('https://bedrock-runtime.us-east-1.amazonaws.com/model/x/invoke'), credentialSource);
    expect(signed.authorization).toMatch(/^AWS4-HMAC-SHA256 /);
  });


  it("signs with the default chain's credentials for the bedrock service and the provider's region, session token included", async () => {
    const response = await send(provider({ region: 'us-east-1' }));

    expect(response.status).toBe(200);
    expect(bedrock.received.at(-1)?.authorization).toMatchObject({ kind: 'sigv4', accessKeyId: 'AKIDROLE0000EXAMPLE', region: 'us-east-1', service: 'bedrock', sessionToken: 'role-session-token-0123456789' });
    expect(bedrock.received.at(-1)?.model).toBe('us.anthropic.claude-haiku-4-5-20251001-v1:0');
    expect(credentialSource.asked.at(-1)).toBeUndefined();
  });

  it('signs each call with the credentials the chain gives then (renewed credentials are taken at once)', async () => {
    let renewed = false;
    const renewing: AwsCredentialSource = {
      async credentials() {
        return renewed ? { accessKeyId: 'AKIDPROFILE00EXAMPLE', secretAccessKey: KEYS.AKIDPROFILE00EXAMPLE.secretAccessKey } : { accessKeyId: 'AKIDROLE0000EXAMPLE', ...KEYS.AKIDROLE0000EXAMPLE };
      },
    };
    expect((await send(provider({ region: 'us-east-1' }), { source: renewing })).status).toBe(200);
    renewed = true;

    expect((await send(provider({ region: 'us-east-1' }), { source: renewing })).status).toBe(200);
    expect(bedrock.received.at(-1)?.authorization).toMatchObject({ kind: 'sigv4', accessKeyId: 'AKIDPROFILE00EXAMPLE', sessionToken: undefined });
  });

  it("signs with a named profile's credentials when the provider names one", async () => {
    const response = await send(provider({ region: 'us-east-1', profile: 'dev' }));

    expect(response.status).toBe(200);
    expect(bedrock.received.at(-1)?.authorization).toMatchObject({ kind: 'sigv4', accessKeyId: 'AKIDPROFILE00EXAMPLE', sessionToken: undefined });
  });

  it('makes a signature the runtime refuses once the body is changed after signing', async () => {
    const response = await send(provider({ region: 'us-east-1' }), { tamper: (body) => body.replace('Hi', 'Ho') });

    expect(response.status).toBe(403);
    expect(response.headers.get('x-amzn-errortype')).toMatch(/^InvalidSignatureException/);
  });

  it("is refused by a runtime of another region: the signature is scoped to the provider's region", async () => {
    const response = await send(provider({ region: 'eu-west-1' }));

    expect(response.status).toBe(403);
    expect(bedrock.refused.at(-1)?.reason).toMatch(/valid region, not 'eu-west-1'/);
  });

  it('sends a Bedrock API key as a bearer token instead of signing', async () => {
    const response = await send(provider({ region: 'us-east-1' }, 'bearer'), { apiKey: 'bedrock-api-key-0123456789' });

    expect(response.status).toBe(200);
    expect(bedrock.received.at(-1)?.authorization).toEqual({ kind: 'bearer', token: 'bedrock-api-key-0123456789' });
  });

  it('names the profile when it has no credentials, as an upstream error the failover moves past', async () => {
    await expect(send(provider({ region: 'us-east-1', profile: 'missing' }))).rejects.toMatchObject({
      kind: 'upstream',
      code: 'provider_credentials_unavailable',
      message: 'Provider "bedrock": no AWS credentials from the AWS profile "missing".',
    });
  });
});
