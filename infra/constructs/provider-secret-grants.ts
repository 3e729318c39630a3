import { ArnFormat, Stack } from 'aws-cdk-lib';
import { PolicyStatement, type IGrantable } from 'aws-cdk-lib/aws-iam';

/**
 * Provider keys are Secrets Manager secrets named `<prefix><projectId>/<provider>`, created by the admin
 * function at run time (never by the stack), so grants name the prefix. Secrets Manager appends a random
 * suffix to every secret ARN: the trailing `*` covers it and the project and provider parts.
 */
export function providerSecretsArn(scope: Stack, prefix: string): string {
  return scope.formatArn({ service: 'secretsmanager', resource: 'secret', resourceName: `${prefix}*`, arnFormat: ArnFormat.COLON_RESOURCE_NAME });
}

/** The request path reads provider keys; it can never change them. */
export function grantProviderSecretsRead(grantee: IGrantable, scope: Stack, prefix: string): void {
  grantee.grantPrincipal.addToPrincipalPolicy(
    new PolicyStatement({ actions: ['secretsmanager:GetSecretValue'], resources: [providerSecretsArn(scope, prefix)] }),
  );
}

/** The admin function stores keys (create on first set, a new version after), reads them back and deletes them (`provider remove`). */
export function grantProviderSecretsManage(grantee: IGrantable, scope: Stack, prefix: string): void {
  grantee.grantPrincipal.addToPrincipalPolicy(
    new PolicyStatement({
      actions: ['secretsmanager:CreateSecret', 'secretsmanager:PutSecretValue', 'secretsmanager:GetSecretValue', 'secretsmanager:DeleteSecret'],
      resources: [providerSecretsArn(scope, prefix)],
    }),
  );
}
