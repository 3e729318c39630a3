import { Duration, type App } from 'aws-cdk-lib';
import type { GatewayStackProps } from './gateway-stack.ts';

/**
 * Deployment choices given on the command line, e.g.
 * `npx cdk deploy -c domainName=gateway.example.com -c certificateArn=arn:aws:acm:us-east-1:…`.
 */
export function stackPropsFromContext(app: App): GatewayStackProps {
  const text = (key: string): string | undefined => {
    const value: unknown = app.node.tryGetContext(key);
    return typeof value === 'string' && value !== '' ? value : undefined;
  };
  const flag = (key: string): boolean | undefined => {
    const value: unknown = app.node.tryGetContext(key);
    if (value === undefined) return undefined;
    return value === true || value === 'true';
  };
  const domainName = text('domainName');
  const certificateArn = text('certificateArn');
  if ((domainName === undefined) !== (certificateArn === undefined)) {
    throw new Error('Give domainName and certificateArn together.');
  }
  const waf = text('wafManagedRuleGroups');
  const webAclArn = text('webAclArn');
  const deletionProtection = flag('deletionProtection');
  const alarmTopicArn = text('alarmTopicArn');
  const secretPrefix = text('secretPrefix');
  const usageDatabaseName = text('usageDatabaseName');
  const consoleDomainPrefix = text('consoleDomainPrefix');
  const readTimeout = text('originReadTimeoutSeconds');
  if (readTimeout !== undefined && !/^[1-9][0-9]*$/.test(readTimeout)) throw new Error('originReadTimeoutSeconds: a whole number of seconds.');
  return {
    ...(domainName && certificateArn ? { customDomain: { domainName, certificateArn } } : {}),
    ...(flag('waf') || waf ? { waf: waf ? { managedRuleGroups: waf.split(',').map((name) => name.trim()) } : {} } : {}),
    ...(webAclArn ? { webAclArn } : {}),
    ...(deletionProtection !== undefined ? { deletionProtection } : {}),
    ...(alarmTopicArn ? { alarmTopicArn } : {}),
    // A second gateway in the same account and region needs its own prefix and database.
    ...(secretPrefix ? { secretPrefix } : {}),
    ...(usageDatabaseName ? { usageDatabaseName } : {}),
    ...(consoleDomainPrefix ? { consoleDomainPrefix } : {}),
    ...(readTimeout ? { originReadTimeout: Duration.seconds(Number(readTimeout)) } : {}),
  };
}
