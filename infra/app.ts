import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { GatewayStack } from './gateway-stack.ts';
import { stackPropsFromContext } from './stack-context.ts';

/** `npx cdk synth` / `npx cdk deploy` (cdk.json): one stack, checked by cdk-nag's AwsSolutions pack. */
const app = new App();
new GatewayStack(app, app.node.tryGetContext('stackName') ?? 'ModelGateway', {
  ...stackPropsFromContext(app),
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
});
// Runs at synthesis; a finding not acknowledged (with its reason) in infra/nag-suppressions.ts stops it.
Validations.of(app).addPlugins(new AwsSolutionsChecks(app, { verbose: true }));
