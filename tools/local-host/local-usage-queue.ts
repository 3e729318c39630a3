import { appendFile } from 'node:fs/promises';
import { hash, randomUUID } from 'node:crypto';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type { UsageSink } from '../../shared/core/ports.ts';
import type { UsageRecord } from '../../shared/core/usage-record.ts';
import { UsageJournal } from './usage-journal.ts';

interface QueuedMessage {
  messageId: string;
  body: string;
  sentAt: number;
  receiveCount: number;
}

/** A message a batch failed: delivered again once its retry delay has passed. */
interface RetryingMessage extends QueuedMessage {
  visibleAt: number;
}

export interface LocalUsageQueueOptions {
  /** The writer handler, called with SQS-shaped batches exactly as the event source mapping would. */
  deliver(event: SQSEvent): Promise<SQSBatchResponse | void>;
  /** Messages that failed maxReceiveCount times are appended here, one JSON line each. */
  deadLetterFile: string;
  /** Where records wait until applied (see usage-journal.ts); without it the queue lives in memory only. */
  journalFile?: string;
  report(message: string): void;
  batchSize?: number;
  batchWindowMs?: number;
  maxReceiveCount?: number;
  retryDelayMs?: number;
}

/**
 * The local stand-in for the SQS usage queue and its Lambda event source: batches of up to `batchSize`
 * messages after a short window, partial batch failures retried after a delay, and messages that fail
 * `maxReceiveCount` times moved to a dead-letter file and reported.
 */
export class LocalUsageQueue implements UsageSink {
  /**
   * Messages to deliver, oldest first: new ones and those a previous run left are visible at once. Those a
   * batch failed wait apart until their retry delay has passed. A burst or a slow writer can grow the ready
   * ones past 100,000: they are taken from the front, never scanned, and no list is spread into a call.
   */
  private ready: QueuedMessage[] = [];
  private retrying: RetryingMessage[] = [];
  private timer: NodeJS.Timeout | undefined;
  private delivering: Promise<void> | undefined;
  private readonly batchSize: number;
  private readonly batchWindowMs: number;
  private readonly maxReceiveCount: number;
  private readonly retryDelayMs: number;

  private readonly journal: UsageJournal | undefined;

  private readonly options: LocalUsageQueueOptions;

  constructor(options: LocalUsageQueueOptions) {
    this.options = options;
    // As the writer's event source mapping in AWS (infra/gateway-stack.ts).
    this.batchSize = options.batchSize ?? 100;
    this.batchWindowMs = options.batchWindowMs ?? 50;
    this.maxReceiveCount = options.maxReceiveCount ?? 5;
    this.retryDelayMs = options.retryDelayMs ?? 200;
    if (options.journalFile) {
      const { journal, pending } = UsageJournal.open(options.journalFile, randomUUID);
      this.journal = journal;
      if (pending.length > 0) {
        options.report(`delivering ${pending.length} usage record(s) a previous run left undelivered`);
        const now = Date.now();
        for (const message of pending) this.ready.push({ messageId: message.id, body: message.body, sentAt: now, receiveCount: 0 });
        this.schedule(0);
      }
    }
  }

  async send(record: UsageRecord): Promise<void> {
    const now = Date.now();
    const message = { messageId: randomUUID(), body: JSON.stringify(record), sentAt: now, receiveCount: 0 };
    // On disk before the answer ends: a record handed over survives the process.
    this.journal?.sent(message.messageId, record.recordId, message.body);
    this.ready.push(message);
    // Like the event source mapping: a full batch goes at once, a partial one waits for the batching window.
    this.schedule(this.ready.length >= this.batchSize ? 0 : this.batchWindowMs);
  }

  /** Keeps a request's provisional record, delivered in its place should the process stop first. */
  expect(record: UsageRecord): void {
    this.journal?.expect(record.recordId, JSON.stringify(record));
  }

  /** Closes the journal (after a drain, nothing in it is undone). */
  close(): void {
    this.journal?.close();
  }

  /** Resolves once every message has been delivered or dead-lettered (for shutdown and tests). */
  async drain(): Promise<void> {
    for (;;) {
      if (this.delivering) {
        await this.delivering;
        continue;
      }
      if (this.queued() === 0) return;
      await new Promise((resolve) => setTimeout(resolve, this.nextVisibleIn()));
      if (!this.delivering) {
        clearTimeout(this.timer);
        this.timer = undefined;
        this.startDelivery();
      }
    }
  }

  private schedule(delayMs: number): void {
    if (this.delivering) return;
    if (this.timer && delayMs === 0) {
      // A batch filled up while the window was open: it need not wait for the window to close.
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.startDelivery();
    }, delayMs);
    this.timer.unref();
  }

  private startDelivery(): void {
    this.delivering = this.deliverBatch().finally(() => {
      this.delivering = undefined;
      if (this.queued() > 0) this.schedule(this.visibleCount() >= this.batchSize ? 0 : Math.max(this.batchWindowMs, this.nextVisibleIn()));
    });
  }

  private queued(): number {
    return this.ready.length + this.retrying.length;
  }

  private visibleCount(): number {
    const now = Date.now();
    let visible = this.ready.length;
    for (const message of this.retrying) if (message.visibleAt <= now) visible += 1;
    return visible;
  }

  /** Milliseconds until a message can be delivered (0 if one can now). */
  private nextVisibleIn(): number {
    if (this.ready.length > 0) return 0;
    let soonest = Number.POSITIVE_INFINITY;
    for (const message of this.retrying) soonest = Math.min(soonest, message.visibleAt);
    return soonest === Number.POSITIVE_INFINITY ? 0 : Math.max(0, soonest - Date.now());
  }

  private async deliverBatch(): Promise<void> {
    const now = Date.now();
    // Retries whose delay has passed go first, then the oldest of the rest.
    const due: QueuedMessage[] = [];
    const waiting: RetryingMessage[] = [];
    for (const message of this.retrying) (message.visibleAt <= now && due.length < this.batchSize ? due : waiting).push(message);
    this.retrying = waiting;
    const batch = [...due, ...this.ready.splice(0, this.batchSize - due.length)];
    if (batch.length === 0) return;
    for (const message of batch) message.receiveCount += 1;
    let failedIds: Set<string>;
    try {
      const response = await this.options.deliver({ Records: batch.map((message) => toSqsRecord(message, now)) });
      failedIds = new Set((response?.batchItemFailures ?? []).map((failure) => failure.itemIdentifier));
    } catch (error) {
      this.options.report(`usage writer failed a whole batch: ${error instanceof Error ? error.message : String(error)}`);
      failedIds = new Set(batch.map((message) => message.messageId));
    }
    this.journal?.done(...batch.filter((message) => !failedIds.has(message.messageId)).map((message) => message.messageId));
    // One clock reading for the whole batch: messages that failed together come back together, not split
    // into one batch each when the clock ticks between them.
    const failedAt = Date.now();
    for (const message of batch) {
      if (!failedIds.has(message.messageId)) continue;
      if (message.receiveCount >= this.maxReceiveCount) await this.deadLetter(message);
      else this.retrying.push({ ...message, visibleAt: failedAt + this.retryDelayMs * message.receiveCount });
    }
  }

  private async deadLetter(message: QueuedMessage): Promise<void> {
    await appendFile(this.options.deadLetterFile, `${JSON.stringify({ messageId: message.messageId, receiveCount: message.receiveCount, body: message.body })}\n`, { mode: 0o600 });
    this.journal?.done(message.messageId);
    this.options.report(`usage message ${message.messageId} failed ${message.receiveCount} times: moved to ${this.options.deadLetterFile}`);
  }
}

function toSqsRecord(message: QueuedMessage, now: number): SQSRecord {
  return {
    messageId: message.messageId,
    receiptHandle: message.messageId,
    body: message.body,
    attributes: {
      ApproximateReceiveCount: String(message.receiveCount),
      SentTimestamp: String(message.sentAt),
      SenderId: 'local',
      ApproximateFirstReceiveTimestamp: String(now),
    },
    messageAttributes: {},
    // One-shot: a batch of 100 bodies hashed through createHash held the request thread ~2x as long.
    md5OfBody: hash('md5', message.body, 'hex'),
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn:aws:sqs:local:000000000000:gateway-usage',
    awsRegion: 'local',
  };
}
