import { Duration, type App } from 'aws-cdk-lib';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { GatewayStackProps } from '../gateway-stack.ts';
import { loadDeploySettings, type DeploySettings } from './deploy-settings.ts';

/** The context flags deployments used to pass; now fields of the settings file, never read from the command line. */
export const RETIRED_CONTEXT_FLAGS = [
  'domainName',
  'certificateArn',
  'waf',
  'wafManagedRuleGroups',
  'webAclArn',
  'deletionProtection',
  'alarmTopicArn',
  'originReadTimeoutSeconds',
  'stackName',
  'secretPrefix',
  'usageDatabaseName',
  'consoleDomainPrefix',
];

const retention: Record<DeploySettings['logRetentionDays'], RetentionDays> = {
  30: RetentionDays.ONE_MONTH,
  90: RetentionDays.THREE_MONTHS,
  180: RetentionDays.SIX_MONTHS,
  365: RetentionDays.ONE_YEAR,
  731: RetentionDays.TWO_YEARS,
  1827: RetentionDays.FIVE_YEARS,
};

export function stackPropsFromSettings(settings: DeploySettings): GatewayStackProps {
  const sizing = (memoryMb: number, reservedConcurrency: number | undefined) => ({
    memorySize: memoryMb,
    ...(reservedConcurrency !== undefined ? { reservedConcurrency } : {}),
  });
  return {
    ...(settings.customDomain ? { customDomain: settings.customDomain } : {}),
    ...(settings.waf ? { waf: settings.waf } : {}),
    ...(settings.webAclArn ? { webAclArn: settings.webAclArn } : {}),
    deletionProtection: settings.deletionProtection,
    alarmEmails: settings.alarmEmails,
    ...(settings.originSecretVersion ? { originSecretVersion: settings.originSecretVersion } : {}),
    originReadTimeout: Duration.seconds(settings.originReadTimeoutSeconds),
    secretPrefix: settings.secretPrefix,
    usageDatabaseName: settings.usageDatabaseName,
    athenaBytesScannedCutoffGb: settings.athenaBytesScannedCutoffGb,
    logRetention: retention[settings.logRetentionDays],
    routeGroupSizing: sizing(settings.routeGroups.memoryMb, settings.routeGroups.reservedConcurrency),
    toolBridgeSizing: sizing(settings.toolBridge.memoryMb, settings.toolBridge.reservedConcurrency),
    writerSizing: sizing(settings.writer.memoryMb, settings.writer.reservedConcurrency),
    writerMaxConcurrency: settings.writer.maxConcurrency,
    adminSizing: sizing(settings.admin.memoryMb, settings.admin.reservedConcurrency),
    usageCompactorSizing: sizing(settings.usageCompactor.memoryMb, settings.usageCompactor.reservedConcurrency),
    ...(settings.bedrock ? { bedrock: settings.bedrock } : {}),
    consoleSizing: sizing(settings.console.memoryMb, settings.console.reservedConcurrency),
    ...(settings.consoleDomainPrefix ? { consoleDomainPrefix: settings.consoleDomainPrefix } : {}),
  };
}

/**
 * The app's settings: `-c env=<name>` picks infra/settings/<name>.json (default `default`). A retired `-c`
 * flag is refused rather than ignored: a later plain `cdk deploy` would silently drop it.
 */
export function deploySettingsOf(app: App): { environment: string; settings: DeploySettings } {
  const given = RETIRED_CONTEXT_FLAGS.filter((flag) => app.node.tryGetContext(flag) !== undefined);
  if (given.length > 0) {
    throw new Error(`-c ${given.join(', -c ')}: deploy settings live in infra/settings/<env>.json now (see docs/deploy.md); only -c env=<name> is read.`);
  }
  const requested: unknown = app.node.tryGetContext('env');
  const environment = typeof requested === 'string' && requested !== '' ? requested : 'default';
  return { environment, settings: loadDeploySettings(environment) };
}
