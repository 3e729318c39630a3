import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { GatewayStack } from './gateway-stack.ts';
import { deploySettingsOf, stackPropsFromSettings } from './settings/stack-props-from-settings.ts';

/**
 * `npx cdk synth` / `npx cdk deploy [-c env=<name>]` (cdk.json): one stack, configured by
 * infra/settings/<name>.json, checked by cdk-nag's AwsSolutions pack.
 */
const app = new App();
const { environment, settings } = deploySettingsOf(app);
new GatewayStack(app, settings.stackName, {
  ...stackPropsFromSettings(settings),
  description: `Model gateway (settings: infra/settings/${environment}.json)`,
  env: { account: settings.account ?? process.env.CDK_DEFAULT_ACCOUNT, region: settings.region ?? process.env.CDK_DEFAULT_REGION },
});
// Runs at synthesis; a finding not acknowledged (with its reason) in infra/nag-suppressions.ts stops it.
Validations.of(app).addPlugins(new AwsSolutionsChecks(app, { verbose: true }));
