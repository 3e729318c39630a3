import { describe, expect, it } from 'vitest';
import { anthropicNameOf, awsRegionSchema, bedrockCacheFields, bedrockRuntimeUrl, foundationModelOf, isAnthropicBedrockModel, isSystemInferenceProfile } from '../../shared/core/bedrock-models.ts';
import { planRoute } from '../../shared/core/plan-route.ts';
import type { ProjectConfig, ProviderConfig } from '../../shared/core/project-config.ts';
import { supportedChatParameters } from '../../shared/core/provider-catalog.ts';

const AT = '2025-01-01T00:00:00.000Z';

describe('bedrockCacheFields', () => {
  it.each([
    ['amazon.nova-pro-v1:0', ['system', 'messages']],
    ['us.amazon.nova-lite-v1:0', ['system', 'messages']],
    ['us.anthropic.claude-sonnet-4-5-20250929-v1:0', ['system', 'messages', 'tools']],
    ['anthropic.claude-3-5-haiku-20241022-v1:0', ['system', 'messages', 'tools']],
    ['anthropic.claude-3-haiku-20240307-v1:0', []],
    ['anthropic.claude-3-5-sonnet-20240620-v1:0', []],
    ['meta.llama3-3-70b-instruct-v1:0', []],
    ['arn:aws:bedrock:us-east-1::foundation-model/amazon.nova-micro-v1:0', ['system', 'messages']],
    ['arn:aws:bedrock:us-east-1:123456789012:application-inference-profile/a1b2c3', undefined],
  ])('%s caches %j', (id, fields) => {
    expect(bedrockCacheFields(id)).toEqual(fields);
  });
});

describe('Bedrock model ids', () => {
  it.each([
    ['anthropic.claude-sonnet-4-5-20250929-v1:0', true, false, 'anthropic.claude-sonnet-4-5-20250929-v1:0'],
    ['us.anthropic.claude-haiku-4-5-20251001-v1:0', true, true, 'anthropic.claude-haiku-4-5-20251001-v1:0'],
    ['global.anthropic.claude-opus-4-5-20251101-v1:0', true, true, 'anthropic.claude-opus-4-5-20251101-v1:0'],
    ['eu.amazon.nova-pro-v1:0', false, true, 'amazon.nova-pro-v1:0'],
    ['amazon.nova-pro-v1:0', false, false, 'amazon.nova-pro-v1:0'],
    ['meta.llama3-3-70b-instruct-v1:0', false, false, 'meta.llama3-3-70b-instruct-v1:0'],
    ['arn:aws:bedrock:us-east-1:123456789012:application-inference-profile/a1b2c3', false, false, 'arn:aws:bedrock:us-east-1:123456789012:application-inference-profile/a1b2c3'],
  ])('%s: Anthropic %s, system profile %s, foundation model %s', (id, anthropic, profile, foundation) => {
    expect(isAnthropicBedrockModel(id)).toBe(anthropic);
    expect(isSystemInferenceProfile(id)).toBe(profile);
    expect(foundationModelOf(id)).toBe(foundation);
  });

  it("names a Claude model as Anthropic does, for the model-limits table, and no other model", () => {
    expect(anthropicNameOf('us.anthropic.claude-haiku-4-5-20251001-v1:0')).toBe('claude-haiku-4-5-20251001');
    expect(anthropicNameOf('amazon.nova-pro-v1:0')).toBeUndefined();
  });

  it('derives the runtime endpoint from the region, and takes only region names', () => {
    expect(bedrockRuntimeUrl('eu-central-1')).toBe('https://bedrock-runtime.eu-central-1.amazonaws.com');
    expect(awsRegionSchema.safeParse('us-gov-west-1').success).toBe(true);
    expect(awsRegionSchema.safeParse('https://evil.example').success).toBe(false);
  });
});

describe('Bedrock providers in routing', () => {
  const bedrock: ProviderConfig = {
    provider: 'bedrock',
    protocols: ['bedrock-anthropic-messages', 'bedrock-converse'],
    auth: 'aws-sigv4',
    baseUrl: 'https://bedrock-runtime.us-east-1.amazonaws.com',
    hasApiKey: false,
    aws: { region: 'us-east-1' },
    updatedAt: AT,
  };
  const config: ProjectConfig = {
    project: { projectId: 'acme', name: 'acme', plan: 'active', usageInjection: false, failover: true, mcp: false, createdAt: AT, updatedAt: AT },
    providers: new Map([['bedrock', bedrock]]),
    models: [
      { slug: 'bedrock/us.anthropic.claude-haiku-4-5-20251001-v1:0', provider: 'bedrock', model: 'us.anthropic.claude-haiku-4-5-20251001-v1:0', alias: 'haiku', kind: 'chat', createdAt: AT },
      { slug: 'bedrock/amazon.nova-pro-v1:0', provider: 'bedrock', model: 'amazon.nova-pro-v1:0', kind: 'chat', createdAt: AT },
    ],
    rates: new Map(),
  };
  const plan = (model: string, fallbackModels: string[] = []) =>
    planRoute(
      { model, fallbackModels, failoverEnabled: true, preferences: {}, protocols: ['openai-chat', 'anthropic-messages', 'bedrock-anthropic-messages', 'bedrock-converse'], modelKinds: ['chat'], parameters: [], isCoolingDown: () => false },
      config,
      new Map(),
    );

  it('routes to a Bedrock provider that holds no key: its calls are signed', () => {
    expect(plan('haiku', ['bedrock/amazon.nova-pro-v1:0']).map((target) => target.model.slug)).toEqual(['bedrock/us.anthropic.claude-haiku-4-5-20251001-v1:0', 'bedrock/amazon.nova-pro-v1:0']);
  });

  it("serves Claude over InvokeModel's Messages first and every other model over Converse", () => {
    expect(plan('haiku')[0]?.provider.protocols).toEqual(['bedrock-anthropic-messages', 'bedrock-converse']);
    expect(plan('amazon.nova-pro-v1:0')[0]?.provider.protocols).toEqual(['bedrock-converse']);
  });

  it('lists the chat parameters each translation carries', () => {
    expect(supportedChatParameters('bedrock', ['bedrock-converse'])).toEqual(['max_tokens', 'temperature', 'top_p', 'stop', 'tools', 'tool_choice']);
    expect(supportedChatParameters('bedrock', ['bedrock-anthropic-messages', 'bedrock-converse'])).toContain('reasoning_effort');
  });
});
