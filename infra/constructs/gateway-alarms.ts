import { Duration } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, MathExpression, Metric, TreatMissingData, type IMetric } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { FilterPattern, MetricFilter, type ILogGroup } from 'aws-cdk-lib/aws-logs';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Construct } from 'constructs';
import { METRICS_NAMESPACE } from '../../shared/wiring/metrics.ts';
import { USAGE_RECORD_NOT_QUEUED, USAGE_RECORD_SPILLED } from '../../shared/wiring/route-group-function.ts';

export interface AlarmedFunction {
  name: string;
  function: IFunction;
  logGroup: ILogGroup;
  /** Route groups: alarm on the 5xx share of their function URL's responses. */
  servesUrl: boolean;
}

export interface GatewayAlarmsProps {
  functions: AlarmedFunction[];
  /** Addresses subscribed to the alarm topic (each confirms by e-mail once). */
  emails: readonly string[];
  /** Alarms of other constructs (the usage queue's) that notify the same topic. */
  otherAlarms: Alarm[];
}

/** 5xx above this share of a route group's responses, over 5 minutes, twice in a row. */
export const SERVER_ERROR_RATE_THRESHOLD = 0.05;

/**
 * The stack's alarm topic and the alarms that say something is wrong: function errors and throttles, a
 * route group's 5xx rate, and usage records that had to be spilled or were lost outright (counted from the
 * route groups' log lines). Every alarm of the stack notifies the topic.
 */
export class GatewayAlarms extends Construct {
  readonly topic: Topic;
  readonly alarms: Alarm[] = [];
  readonly spilledRecords: Metric;
  readonly unsentRecords: Metric;

  constructor(scope: Construct, id: string, props: GatewayAlarmsProps) {
    super(scope, id);
    this.topic = new Topic(this, 'Topic', { displayName: 'Model gateway alarms', enforceSSL: true });
    for (const email of props.emails) this.topic.addSubscription(new EmailSubscription(email));
    const alarm = (name: string, metric: IMetric, description: string, evaluationPeriods = 1, threshold = 0) =>
      this.alarms.push(
        new Alarm(this, name, {
          alarmDescription: description,
          metric,
          threshold,
          comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
          evaluationPeriods,
          treatMissingData: TreatMissingData.NOT_BREACHING,
        }),
      );

    const period = Duration.minutes(5);
    for (const { name, function: fn, logGroup, servesUrl } of props.functions) {
      alarm(`${name}Errors`, fn.metricErrors({ period, statistic: 'Sum' }), `The ${name} function failed (an invocation error, not an HTTP error it rendered).`);
      alarm(`${name}Throttles`, fn.metricThrottles({ period, statistic: 'Sum' }), `The ${name} function was throttled: concurrency exhausted (reserved or account).`);
      if (!servesUrl) continue;
      const url = (metricName: string) => new Metric({ namespace: 'AWS/Lambda', metricName, dimensionsMap: { FunctionName: fn.functionName }, period, statistic: 'Sum' });
      const rate = new MathExpression({
        expression: 'IF(requests > 0, errors / requests, 0)',
        usingMetrics: { errors: url('Url5xxCount'), requests: url('UrlRequestCount') },
        period,
        label: `${name} 5xx rate`,
      });
      alarm(`${name}ServerErrorRate`, rate, `More than ${SERVER_ERROR_RATE_THRESHOLD * 100}% of ${name} responses were 5xx for 10 minutes.`, 2, SERVER_ERROR_RATE_THRESHOLD);
      this.countLogMessage(`${name}Spilled`, logGroup, USAGE_RECORD_SPILLED, 'UsageRecordsSpilled');
      this.countLogMessage(`${name}Unsent`, logGroup, USAGE_RECORD_NOT_QUEUED, 'UsageRecordsUnsent');
    }
    this.spilledRecords = new Metric({ namespace: METRICS_NAMESPACE, metricName: 'UsageRecordsSpilled', period, statistic: 'Sum' });
    this.unsentRecords = new Metric({ namespace: METRICS_NAMESPACE, metricName: 'UsageRecordsUnsent', period, statistic: 'Sum' });
    alarm('UsageRecordsSpilled', this.spilledRecords, 'SQS refused usage records; they wait in the spill bucket: run npm run replay (docs/deploy.md).');
    alarm('UsageRecordsUnsent', this.unsentRecords, 'Usage records reached neither SQS nor the spill; they are only in the route groups\' logs ("usage record not queued").');

    const action = new SnsAction(this.topic);
    for (const each of [...this.alarms, ...props.otherAlarms]) each.addAlarmAction(action);
  }

  /** Each log line with this message adds 1 to the metric (JSON logs: `$.message`). */
  private countLogMessage(id: string, logGroup: ILogGroup, message: string, metricName: string): void {
    new MetricFilter(this, id, {
      logGroup,
      filterPattern: FilterPattern.stringValue('$.message', '=', message),
      metricNamespace: METRICS_NAMESPACE,
      metricName,
      metricValue: '1',
    });
  }
}
