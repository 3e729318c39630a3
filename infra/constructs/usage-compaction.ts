import { Duration } from 'aws-cdk-lib';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { GatewayFunction, type FunctionSizing } from './gateway-function.ts';

export interface UsageCompactionProps {
  bucketName: string;
  sizing: FunctionSizing;
  logRetention: RetentionDays;
}

/**
 * The daily compaction of the usage files (docs/decisions/usage-files-and-queries.md): the usage-compactor
 * function, run by an EventBridge schedule at 01:30 UTC, when yesterday's records have reached the writer.
 * A failed run is retried twice; the next day's run covers the same days again anyway.
 */
export class UsageCompaction extends Construct {
  readonly function: GatewayFunction;
  readonly schedule: Rule;

  constructor(scope: Construct, id: string, props: UsageCompactionProps) {
    super(scope, id);
    this.function = new GatewayFunction(this, 'Compactor', {
      name: 'usage-compactor',
      entry: 'functions/usage-compactor/handler.ts',
      description: 'Model gateway usage compactor: merges each recent day of usage files into one Parquet file',
      logRetention: props.logRetention,
      ...props.sizing,
      environment: { GATEWAY_USAGE_ARCHIVE: 's3', GATEWAY_USAGE_BUCKET: props.bucketName },
    });
    this.schedule = new Rule(this, 'Daily', {
      description: 'Compacts the usage files of the last days (model gateway)',
      schedule: Schedule.cron({ minute: '30', hour: '1' }),
      targets: [new LambdaFunction(this.function.function, { retryAttempts: 2, maxEventAge: Duration.hours(6) })],
    });
  }
}
