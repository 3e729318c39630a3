import { Duration, Stack } from 'aws-cdk-lib';
import { AlarmStatusWidget, Dashboard, GraphWidget, Metric, type IAlarm, type IMetric } from 'aws-cdk-lib/aws-cloudwatch';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { METRICS_NAMESPACE } from '../../shared/wiring/metrics.ts';

export interface GatewayDashboardProps {
  routeGroups: Array<{ name: string; function: IFunction }>;
  functions: Array<{ name: string; function: IFunction }>;
  usageQueue: IQueue;
  deadLetterQueue: IQueue;
  spilledRecords: IMetric;
  unsentRecords: IMetric;
  alarms: IAlarm[];
}

/** One CloudWatch dashboard: traffic and errors per route group, latency, functions, the usage pipeline, cost. */
export class GatewayDashboard extends Construct {
  readonly dashboard: Dashboard;

  constructor(scope: Construct, id: string, props: GatewayDashboardProps) {
    super(scope, id);
    const period = Duration.minutes(5);
    const url = (fn: IFunction, metricName: string, label: string) =>
      new Metric({ namespace: 'AWS/Lambda', metricName, dimensionsMap: { FunctionName: fn.functionName }, period, statistic: 'Sum', label });
    const gateway = (metricName: string, service: string, statistic: string, label: string) =>
      new Metric({ namespace: METRICS_NAMESPACE, metricName, dimensionsMap: { service }, period, statistic, label });
    const perGroup = (build: (group: { name: string; function: IFunction }) => IMetric[]) => props.routeGroups.flatMap(build);

    this.dashboard = new Dashboard(this, 'Dashboard', { dashboardName: `${Stack.of(this).stackName}-gateway`, defaultInterval: Duration.hours(6) });
    this.dashboard.addWidgets(
      new AlarmStatusWidget({ title: 'Alarms', alarms: props.alarms, width: 24 }),
      new GraphWidget({
        title: 'Requests and 5xx per route group',
        left: perGroup((group) => [url(group.function, 'UrlRequestCount', `${group.name} requests`)]),
        right: perGroup((group) => [url(group.function, 'Url5xxCount', `${group.name} 5xx`), url(group.function, 'Url4xxCount', `${group.name} 4xx`)]),
        width: 12,
      }),
      new GraphWidget({
        title: 'Latency and time to first byte (p50, p99, ms)',
        left: perGroup((group) => [
          gateway('Latency', `gateway-${group.name}`, 'p50', `${group.name} latency p50`),
          gateway('Latency', `gateway-${group.name}`, 'p99', `${group.name} latency p99`),
          gateway('TimeToFirstByte', `gateway-${group.name}`, 'p99', `${group.name} TTFB p99`),
        ]),
        width: 12,
      }),
      new GraphWidget({
        title: 'Function errors, throttles and concurrency',
        left: props.functions.flatMap(({ name, function: fn }) => [
          fn.metricErrors({ period, label: `${name} errors` }),
          fn.metricThrottles({ period, label: `${name} throttles` }),
        ]),
        right: props.functions.map(({ name, function: fn }) => fn.metric('ConcurrentExecutions', { period, statistic: 'Maximum', label: `${name} concurrency` })),
        width: 12,
      }),
      new GraphWidget({
        title: 'Usage pipeline: queue age (s), backlog, DLQ, spilled and unsent records',
        left: [props.usageQueue.metricApproximateAgeOfOldestMessage({ period, statistic: 'Maximum', label: 'oldest record (s)' })],
        right: [
          props.usageQueue.metricApproximateNumberOfMessagesVisible({ period, statistic: 'Maximum', label: 'backlog' }),
          props.deadLetterQueue.metricApproximateNumberOfMessagesVisible({ period, statistic: 'Maximum', label: 'dead letters' }),
          props.spilledRecords,
          props.unsentRecords,
        ],
        width: 12,
      }),
      new GraphWidget({
        title: 'Tokens and cost (USD, for display; exact cost is in the usage files)',
        left: perGroup((group) => [
          gateway('PromptTokens', `gateway-${group.name}`, 'Sum', `${group.name} prompt tokens`),
          gateway('CompletionTokens', `gateway-${group.name}`, 'Sum', `${group.name} completion tokens`),
        ]),
        right: perGroup((group) => [gateway('CostUsd', `gateway-${group.name}`, 'Sum', `${group.name} cost`)]),
        width: 24,
      }),
    );
  }
}
