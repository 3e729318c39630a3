import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAdminHarness, type AdminHarness, type ProjectView } from './admin-harness.ts';

describe('runAdminCommand: Bedrock providers', () => {
  let admin: AdminHarness;

  beforeAll(async () => {
    admin = await startAdminHarness();
    await admin.ok({ command: 'project.create', projectId: 'aws' });
  });
  afterAll(async () => {
    await admin?.close();
  });

  it("sets Bedrock with its region alone: both runtime protocols, signed with the gateway's AWS credentials, no key", async () => {
    const result = await admin.ok<ProjectView>({ command: 'provider.set', projectId: 'aws', provider: 'bedrock', region: 'us-east-1' });

    expect(result.providers).toEqual([
      {
        provider: 'bedrock',
        protocols: ['bedrock-anthropic-messages', 'bedrock-converse'],
        auth: 'aws-sigv4',
        base_url: 'https://bedrock-runtime.us-east-1.amazonaws.com',
        has_api_key: false,
        region: 'us-east-1',
      },
    ]);
    await expect(admin.secrets.getApiKey('aws', 'bedrock')).resolves.toBeUndefined();
  });

  it('sets a second region under another name with --protocol bedrock and a signing profile', async () => {
    const result = await admin.ok<ProjectView>({ command: 'provider.set', projectId: 'aws', provider: 'bedrock-eu', protocol: 'bedrock', region: 'eu-central-1', profile: 'gateway-dev' });

    expect(result.providers.find((provider) => provider.provider === 'bedrock-eu')).toEqual({
      provider: 'bedrock-eu',
      protocols: ['bedrock-anthropic-messages', 'bedrock-converse'],
      auth: 'aws-sigv4',
      base_url: 'https://bedrock-runtime.eu-central-1.amazonaws.com',
      has_api_key: false,
      region: 'eu-central-1',
      profile: 'gateway-dev',
    });
  });

  it('takes a Bedrock API key as a bearer token, and forgets it when set again without one', async () => {
    await admin.ok({ command: 'project.create', projectId: 'keyed' });
    const keyed = await admin.ok<ProjectView>({ command: 'provider.set', projectId: 'keyed', provider: 'bedrock', region: 'us-west-2', apiKey: 'bedrock-api-key-secret-0001' });
    expect(keyed.providers[0]).toMatchObject({ auth: 'bearer', has_api_key: true, region: 'us-west-2' });
    await expect(admin.secrets.getApiKey('keyed', 'bedrock')).resolves.toBe('bedrock-api-key-secret-0001');
    expect(JSON.stringify(admin.answers)).not.toContain('bedrock-api-key-secret-0001');

    const signed = await admin.ok<ProjectView>({ command: 'provider.set', projectId: 'keyed', provider: 'bedrock', region: 'us-west-2' });
    expect(signed.providers[0]).toMatchObject({ auth: 'aws-sigv4', has_api_key: false });
    await expect(admin.secrets.getApiKey('keyed', 'bedrock')).resolves.toBeUndefined();
  });

  it('refuses Bedrock without a region, a region that is not one, and --region on another protocol', async () => {
    expect(await admin.refused({ command: 'provider.set', projectId: 'aws', provider: 'bedrock' })).toMatchObject({ status: 400, code: 'missing_region' });
    expect(await admin.refused({ command: 'provider.set', projectId: 'aws', provider: 'bedrock', region: 'evil.example.com/' })).toMatchObject({ status: 400 });
    expect(await admin.refused({ command: 'provider.set', projectId: 'aws', provider: 'openai', apiKey: 'sk-x-0123456789', region: 'us-east-1' })).toMatchObject({
      status: 400,
      code: 'bedrock_only_option',
    });
  });

  it('refuses a loopback runtime endpoint where the deployment allows no private upstreams (the local host does)', async () => {
    expect(await admin.refused({ command: 'provider.set', projectId: 'aws', provider: 'bedrock', region: 'us-east-1', baseUrl: 'http://127.0.0.1:4566' })).toMatchObject({
      status: 400,
      code: 'invalid_base_url',
    });
    const vpce = await admin.ok<ProjectView>({
      command: 'provider.set',
      projectId: 'aws',
      provider: 'bedrock',
      region: 'us-east-1',
      baseUrl: 'https://vpce-0a1b2c3d-abcdefgh.bedrock-runtime.us-east-1.vpce.amazonaws.com',
    });
    expect(vpce.providers.find((provider) => provider.provider === 'bedrock')?.base_url).toBe('https://vpce-0a1b2c3d-abcdefgh.bedrock-runtime.us-east-1.vpce.amazonaws.com');
  });

  it('sends the gateway’s AWS credentials to AWS’s endpoints only: another host needs a Bedrock API key', async () => {
    expect(await admin.refused({ command: 'provider.set', projectId: 'aws', provider: 'bedrock', region: 'us-east-1', baseUrl: 'https://bedrock.attacker.example/bedrock' })).toMatchObject({
      status: 400,
      code: 'invalid_base_url',
      message: expect.stringContaining("go only to Bedrock's runtime endpoints"),
    });
    // Anyone's API Gateway or bucket is a host under amazonaws.com too.
    for (const baseUrl of ['https://amazonaws.com.attacker.example', 'https://abc123.execute-api.us-east-1.amazonaws.com', 'https://bucket.s3.us-east-1.amazonaws.com']) {
      expect(await admin.refused({ command: 'provider.set', projectId: 'aws', provider: 'bedrock', region: 'us-east-1', baseUrl }), baseUrl).toMatchObject({ code: 'invalid_base_url' });
    }
    for (const baseUrl of ['https://bedrock-runtime-fips.us-east-1.amazonaws.com', 'https://bedrock-runtime.us-east-1.api.aws', 'https://bedrock-runtime.cn-north-1.amazonaws.com.cn']) {
      await admin.ok({ command: 'provider.set', projectId: 'aws', provider: 'bedrock', region: 'us-east-1', baseUrl });
    }
    await admin.ok({ command: 'provider.set', projectId: 'aws', provider: 'bedrock', region: 'us-east-1', baseUrl: 'https://bedrock-proxy.example.com', apiKey: 'bedrock-api-key-0123456789' });
  });

  it('allows Bedrock model ids and inference profiles, with their limits when Anthropic publishes them', async () => {
    await admin.ok({ command: 'model.allow', projectId: 'aws', slug: 'bedrock/us.anthropic.claude-haiku-4-5-20251001-v1:0', alias: 'haiku' });
    const listed = await admin.ok<{ models: Array<Record<string, unknown>> }>({ command: 'model.list', projectId: 'aws' });

    expect(listed.models.find((model) => model.slug === 'bedrock/us.anthropic.claude-haiku-4-5-20251001-v1:0')).toMatchObject({ alias: 'haiku', context_length: 200_000 });
  });
});
