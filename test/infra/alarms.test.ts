import { Match } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { routeGroups } from '../../shared/http/route-groups.ts';
import { USAGE_RECORD_NOT_QUEUED, USAGE_RECORD_SPILLED } from '../../shared/wiring/route-group-function.ts';
import { logicalId, resourcesOfType, synthesizeGateway, type SynthesizedGateway } from './synth-gateway.ts';

let gateway: SynthesizedGateway;
beforeAll(() => {
  gateway = synthesizeGateway({ alarmEmails: ['oncall@example.com', 'finance@example.com'] });
});

interface AlarmProperties {
  AlarmActions: unknown[];
  MetricName?: string;
  Namespace?: string;
  Dimensions?: Array<{ Name: string; Value: unknown }>;
  Metrics?: Array<{ Expression?: string; MetricStat?: { Metric: { MetricName: string } } }>;
  Threshold: number;
}

const alarms = () => Object.values(resourcesOfType(gateway.template, 'AWS::CloudWatch::Alarm')).map(({ Properties }) => Properties as unknown as AlarmProperties);
const functionRef = (prefix: string) => ({ Ref: logicalId(gateway.template, 'AWS::Lambda::Function', prefix) });

describe('alarms', () => {
  it('creates the alarm topic with a subscription per configured address, and every alarm notifies it', () => {
    const topic = { Ref: logicalId(gateway.template, 'AWS::SNS::Topic', 'AlarmsTopic') };
    for (const email of ['oncall@example.com', 'finance@example.com']) {
      gateway.template.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: email, TopicArn: topic });
    }
    expect(alarms().length).toBeGreaterThan(10);
    for (const alarm of alarms()) expect(alarm.AlarmActions).toEqual([topic]);
    gateway.template.hasOutput('AlarmTopicArn', { Value: topic, Description: Match.anyValue() });
  });

  it('alarms on errors and throttles of every function', () => {
    for (const prefix of [...routeGroups.map((group) => `RouteGroup${group.name}`), 'Writer', 'Admin', 'UsageCompactionCompactor']) {
      for (const metric of ['Errors', 'Throttles']) {
        const found = alarms().filter(
          (alarm) => alarm.MetricName === metric && JSON.stringify(alarm.Dimensions) === JSON.stringify([{ Name: 'FunctionName', Value: functionRef(prefix) }]),
        );
        expect(found, `${prefix} ${metric}`).toHaveLength(1);
      }
    }
  });

  it('alarms on each route group\'s 5xx rate from its function URL', () => {
    const rates = alarms().filter((alarm) => alarm.Metrics?.some((metric) => metric.Expression?.includes('errors / requests')));
    expect(rates).toHaveLength(routeGroups.length);
    for (const rate of rates) {
      expect(rate.Threshold).toBe(0.05);
      expect(rate.Metrics?.map((metric) => metric.MetricStat?.Metric.MetricName).filter(Boolean).sort()).toEqual(['Url5xxCount', 'UrlRequestCount']);
    }
  });

  it('alarms on the queue\'s age, the DLQ\'s depth, and spilled or unsent usage records counted from the logs', () => {
    const names = alarms().map((alarm) => alarm.MetricName);
    expect(names).toEqual(expect.arrayContaining(['ApproximateAgeOfOldestMessage', 'ApproximateNumberOfMessagesVisible', 'UsageRecordsSpilled', 'UsageRecordsUnsent']));
    for (const group of routeGroups) {
      const logGroup = { Ref: logicalId(gateway.template, 'AWS::Logs::LogGroup', `RouteGroup${group.name}`) };
      gateway.template.hasResourceProperties('AWS::Logs::MetricFilter', { LogGroupName: logGroup, FilterPattern: `{ $.message = "${USAGE_RECORD_SPILLED}" }` });
      gateway.template.hasResourceProperties('AWS::Logs::MetricFilter', { LogGroupName: logGroup, FilterPattern: `{ $.message = "${USAGE_RECORD_NOT_QUEUED}" }` });
    }
  });

  it('draws one dashboard with the alarms, traffic, latency, functions, the usage pipeline and cost', () => {
    const dashboards = Object.values(resourcesOfType(gateway.template, 'AWS::CloudWatch::Dashboard'));
    expect(dashboards).toHaveLength(1);
    const body = JSON.stringify(dashboards[0]?.Properties.DashboardBody);
    for (const metric of ['Url5xxCount', 'TimeToFirstByte', 'Throttles', 'ApproximateAgeOfOldestMessage', 'UsageRecordsSpilled', 'CostUsd']) expect(body).toContain(metric);
  });
});

describe('what keeps usage from being lost', () => {
  it('keeps usage records 14 days in the queue', () => {
    gateway.template.hasResourceProperties('AWS::SQS::Queue', {
      MessageRetentionPeriod: 14 * 86_400,
      RedrivePolicy: Match.objectLike({ maxReceiveCount: 5 }),
    });
  });

  it('keeps every dead-lettered record 14 days, SQS\'s longest, for an operator to redrive', () => {
    const queues = resourcesOfType(gateway.template, 'AWS::SQS::Queue');
    const deadLetterIds = Object.values(queues).flatMap(({ Properties }) => {
      const target = (Properties.RedrivePolicy as { deadLetterTargetArn?: { 'Fn::GetAtt'?: [string, string] } } | undefined)?.deadLetterTargetArn;
      return target?.['Fn::GetAtt'] ? [target['Fn::GetAtt'][0]] : [];
    });
    expect(deadLetterIds).toEqual([logicalId(gateway.template, 'AWS::SQS::Queue', 'UsageQueueDeadLetters')]);
    for (const id of deadLetterIds) expect(queues[id]?.Properties.MessageRetentionPeriod).toBe(14 * 86_400);
  });

  it('retains every function\'s log group when the stack is deleted', () => {
    for (const logGroup of Object.values(gateway.template.findResources('AWS::Logs::LogGroup'))) {
      expect(logGroup.DeletionPolicy).toBe('Retain');
    }
  });

  it('tells the route groups where to spill, and lets them put there only', () => {
    const bucket = { Ref: logicalId(gateway.template, 'AWS::S3::Bucket', 'UsageAnalyticsUsage') };
    for (const group of routeGroups) {
      gateway.template.hasResourceProperties('AWS::Lambda::Function', {
        FunctionName: Match.absent(),
        Environment: { Variables: Match.objectLike({ GATEWAY_USAGE_SPILL_BUCKET: bucket, POWERTOOLS_SERVICE_NAME: `gateway-${group.name}` }) },
      });
    }
  });

  it('turns on CloudFront standard logging into a bucket of its own', () => {
    const logs = logicalId(gateway.template, 'AWS::S3::Bucket', 'UsageAnalyticsCloudFrontLogs');
    gateway.template.hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: Match.objectLike({ Logging: { Bucket: { 'Fn::GetAtt': [logs, 'RegionalDomainName'] }, Prefix: 'cloudfront/' } }),
    });
  });
});
