import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { afterAll, describe, expect, it } from 'vitest';
import { loadDeploySettings, parseDeploySettings } from '../../../infra/settings/deploy-settings.ts';
import { deploySettingsOf, RETIRED_CONTEXT_FLAGS, stackPropsFromSettings } from '../../../infra/settings/stack-props-from-settings.ts';
import { PROJECT_ROOT } from '../../../infra/bundling/handler-code.ts';

const directory = mkdtempSync(join(tmpdir(), 'deploy-settings-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe('deploy settings', () => {
  it('reads the committed default environment with the measured sizes and deletion protection on', () => {
    const settings = loadDeploySettings('default');
    expect(settings).toMatchObject({
      stackName: 'ModelGateway',
      deletionProtection: true,
      originReadTimeoutSeconds: 60,
      routeGroups: { memoryMb: 512 },
      toolBridge: { memoryMb: 1024 },
      writer: { memoryMb: 256, maxConcurrency: 5 },
      usageCompactor: { memoryMb: 1024 },
    });
  });

  it('turns a production file into stack props: domain, WAF, read timeout, reserved concurrency, retention', () => {
    writeFileSync(
      join(directory, 'prod.json'),
      JSON.stringify({
        stackName: 'GatewayProd',
        customDomain: { domainName: 'gateway.example.com', certificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/abc' },
        waf: { managedRuleGroups: ['AWSManagedRulesCommonRuleSet'] },
        originReadTimeoutSeconds: 120,
        logRetentionDays: 365,
        routeGroups: { memoryMb: 1024, reservedConcurrency: 50 },
        writer: { memoryMb: 256, maxConcurrency: 10 },
        usageCompactor: { memoryMb: 3008 },
      }),
    );
    const props = stackPropsFromSettings(loadDeploySettings('prod', directory));
    expect(props).toMatchObject({
      customDomain: { domainName: 'gateway.example.com' },
      waf: { managedRuleGroups: ['AWSManagedRulesCommonRuleSet'] },
      deletionProtection: true,
      logRetention: RetentionDays.ONE_YEAR,
      routeGroupSizing: { memorySize: 1024, reservedConcurrency: 50 },
      writerMaxConcurrency: 10,
      usageCompactorSizing: { memorySize: 3008 },
    });
    expect(props.originReadTimeout?.toSeconds()).toBe(120);
  });

  it('refuses unknown fields, bad values and a WAF both created and attached, naming the file and the field', () => {
    expect(() => parseDeploySettings({ domainName: 'x' }, 'prod.json')).toThrow(/prod\.json.*domainName/);
    expect(() => parseDeploySettings({ originReadTimeoutSeconds: 600 }, 'prod.json')).toThrow(/originReadTimeoutSeconds/);
    expect(() => parseDeploySettings({ writer: { memoryMb: 256, maxConcurrency: 1 } }, 'prod.json')).toThrow(/writer\.maxConcurrency/);
    expect(() =>
      parseDeploySettings({ waf: {}, webAclArn: 'arn:aws:wafv2:us-east-1:123456789012:global/webacl/x/1' }, 'prod.json'),
    ).toThrow(/not both/);
  });

  it('passes the Bedrock models and regions the route groups may invoke, and refuses what is not a model id', () => {
    const settings = parseDeploySettings({ bedrock: { models: ['us.anthropic.claude-haiku-4-5-20251001-v1:0', 'amazon.nova-pro-v1:0'], regions: ['us-east-1', 'us-west-2'] } }, 'prod.json');
    expect(stackPropsFromSettings(settings).bedrock).toEqual({ models: ['us.anthropic.claude-haiku-4-5-20251001-v1:0', 'amazon.nova-pro-v1:0'], regions: ['us-east-1', 'us-west-2'] });
    expect(stackPropsFromSettings(loadDeploySettings('default')).bedrock).toBeUndefined();
    expect(() => parseDeploySettings({ bedrock: { models: ['anthropic.*'] } }, 'prod.json')).toThrow(/bedrock\.models\.0/);
    expect(() => parseDeploySettings({ bedrock: { models: [], regions: ['mars'] } }, 'prod.json')).toThrow(/bedrock\.regions\.0/);
  });

  it('names the missing file of an unknown environment, and the environments there are', () => {
    const settings = mkdtempSync(join(directory, 'envs-'));
    writeFileSync(join(settings, 'prod.json'), '{}');
    writeFileSync(join(settings, 'default.json'), '{}');
    expect(() => loadDeploySettings('staging', settings)).toThrow(`No deploy settings for env "staging": ${settings}/staging.json does not exist (envs: default, prod)`);
  });

  it('takes the environment from -c env and refuses the retired -c flags', () => {
    expect(deploySettingsOf(new App({ context: { env: 'default' } })).environment).toBe('default');
    expect(deploySettingsOf(new App()).environment).toBe('default');
    expect(() => deploySettingsOf(new App({ context: { alarmTopicArn: 'arn:aws:sns:us-east-1:123456789012:x' } }))).toThrow(/alarmTopicArn/);
  });

  it('are given in the file by every document: neither the README nor docs/ passes a retired -c flag', () => {
    const documents = ['README.md', ...readdirSync(join(PROJECT_ROOT, 'docs'), { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.md')).map((name) => join('docs', name))];
    const retired = new RegExp(`-c (${RETIRED_CONTEXT_FLAGS.join('|')})\\b`);
    for (const document of documents) expect(readFileSync(join(PROJECT_ROOT, document), 'utf8'), document).not.toMatch(retired);
  });
});
