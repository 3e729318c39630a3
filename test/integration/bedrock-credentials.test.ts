import { describe, expect, it } from 'vitest';
import { sendBedrockError } from '../support/fake-bedrock-runtime.ts';
import { anthropic, bedrock, gateway, key, lastRequest, NOVA, PROFILE, recordedAnswers, useBedrockGateway } from './bedrock-fixtures.ts';

useBedrockGateway();

describe('credentials', () => {
  it("signs with a named profile's credentials when the provider names one", async () => {
    await gateway.admin({ command: 'provider.set', projectId: 'aws', provider: 'bedrock-dev', protocol: 'bedrock', region: 'us-east-1', profile: 'gateway-dev', baseUrl: bedrock.baseUrl });
    await gateway.admin({ command: 'model.allow', projectId: 'aws', slug: `bedrock-dev/${NOVA}` });
    bedrock.answerWith(recordedAnswers);

    await gateway.openai(key).chat.completions.create({ model: `bedrock-dev/${NOVA}`, messages: [{ role: 'user', content: 'Hi' }] });

    expect(lastRequest().authorization).toMatchObject({ kind: 'sigv4', accessKeyId: PROFILE.accessKeyId, region: 'us-east-1' });
  });

  it('sends a Bedrock API key as a bearer token instead of signing', async () => {
    await gateway.admin({ command: 'provider.set', projectId: 'aws', provider: 'bedrock-key', protocol: 'bedrock', region: 'us-east-1', apiKey: 'bedrock-api-key-0123456789', baseUrl: bedrock.baseUrl });
    await gateway.admin({ command: 'model.allow', projectId: 'aws', slug: `bedrock-key/${NOVA}` });
    bedrock.answerWith(recordedAnswers);

    await gateway.openai(key).chat.completions.create({ model: `bedrock-key/${NOVA}`, messages: [{ role: 'user', content: 'Hi' }] });

    expect(lastRequest().authorization).toEqual({ kind: 'bearer', token: 'bedrock-api-key-0123456789' });
  });

  it("tells a Messages client its model is not allowed to the gateway's role without the account or role the refusal names", async () => {
    bedrock.answerWith((_request, response) =>
      sendBedrockError(response, 403, 'AccessDeniedException', 'User: arn:aws:sts::123456789012:assumed-role/ModelGateway-RouteGroup/gateway-messages is not authorized to perform: bedrock:InvokeModelWithResponseStream'),
    );
    const failure = await anthropic().messages.create({ model: 'claude-haiku-4-5', max_tokens: 64, messages: [{ role: 'user', content: 'Hi' }] }).catch((error: unknown) => error);

    // api_error, as every refused provider credential on the messages route: not the client's own permission.
    expect(failure).toMatchObject({ status: 502, error: { error: { type: 'api_error', message: expect.stringContaining("refused the gateway's AWS credentials") } } });
    expect(JSON.stringify(failure)).not.toContain('arn:aws');
  });

  it("reports a signature the runtime refuses (a provider set for the wrong region) as the gateway's AWS credentials, not the client's", async () => {
    await gateway.admin({ command: 'provider.set', projectId: 'aws', provider: 'bedrock-eu', protocol: 'bedrock', region: 'eu-west-1', baseUrl: bedrock.baseUrl });
    await gateway.admin({ command: 'model.allow', projectId: 'aws', slug: `bedrock-eu/${NOVA}` });

    await expect(gateway.openai(key).chat.completions.create({ model: `bedrock-eu/${NOVA}`, messages: [{ role: 'user', content: 'Hi' }] })).rejects.toMatchObject({
      status: 502,
      error: { code: 'provider_auth_failed', message: expect.stringContaining("refused the gateway's AWS credentials (HTTP 403)") },
    });
    expect(bedrock.refused.at(-1)?.reason).toMatch(/valid region, not 'eu-west-1'/);
  });
});
