import { Duration } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';

export interface UsageQueueProps {
  /** The writer's timeout: the visibility timeout must cover six of them (AWS's guidance for event sources). */
  consumerTimeout: Duration;
  /** Alarm when the oldest usage record has waited longer than this. */
  maxMessageAge: Duration;
}

/** Receives before a usage message is parked in the DLQ: five tries ride out a throttled table or bucket. */
export const USAGE_MAX_RECEIVE_COUNT = 5;

/**
 * The usage queue between the request path and the writer, with a dead-letter queue and the two
 * alarms that say usage is not being recorded: a message in the DLQ, and a growing backlog.
 */
export class UsageQueue extends Construct {
  readonly queue: Queue;
  readonly deadLetterQueue: Queue;
  readonly deadLetterAlarm: Alarm;
  readonly backlogAlarm: Alarm;

  constructor(scope: Construct, id: string, props: UsageQueueProps) {
    super(scope, id);
    this.deadLetterQueue = new Queue(this, 'DeadLetters', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      // SQS's longest, for an operator to redrive. A standard queue counts it from the record's first send, not
      // from its move here: the backlog alarm keeps the time spent in the queue to minutes.
      retentionPeriod: Duration.days(14),
    });
    this.queue = new Queue(this, 'Records', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      visibilityTimeout: Duration.seconds(props.consumerTimeout.toSeconds() * 6),
      // SQS's longest: a writer failing silently over a long weekend loses nothing.
      retentionPeriod: Duration.days(14),
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: USAGE_MAX_RECEIVE_COUNT },
    });

    this.deadLetterAlarm = new Alarm(this, 'DeadLettersAlarm', {
      alarmDescription: 'Usage records failed five times and wait in the DLQ: they are not in the ledger or the usage files.',
      metric: this.deadLetterQueue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1), statistic: 'Maximum' }),
      threshold: 0,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    this.backlogAlarm = new Alarm(this, 'BacklogAlarm', {
      alarmDescription: `The oldest usage record has waited more than ${props.maxMessageAge.toSeconds()} s: the writer is failing or behind.`,
      metric: this.queue.metricApproximateAgeOfOldestMessage({ period: Duration.minutes(1), statistic: 'Maximum' }),
      threshold: props.maxMessageAge.toSeconds(),
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 3,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
  }
}
