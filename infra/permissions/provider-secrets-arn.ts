import { ArnFormat, Stack } from 'aws-cdk-lib';

/**
 * Provider keys are Secrets Manager secrets named `<prefix><projectId>/<provider>`, created by the admin
 * function at run time (never by the stack), so grants name the prefix. Secrets Manager appends a random
 * suffix to every secret ARN: the trailing `*` covers it and the project and provider parts.
 */
export function providerSecretsArn(scope: Stack, prefix: string): string {
  return scope.formatArn({ service: 'secretsmanager', resource: 'secret', resourceName: `${prefix}*`, arnFormat: ArnFormat.COLON_RESOURCE_NAME });
}
