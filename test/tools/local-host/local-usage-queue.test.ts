import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LocalUsageQueue, type LocalUsageQueueOptions } from '../../../tools/local-host/local-usage-queue.ts';
import { sampleRecord } from '../../support/sample-usage-record.ts';

interface Delivery {
  at: number;
  records: SQSRecord[];
}

describe('LocalUsageQueue', () => {
  let dir: string;
  let deadLetterFile: string;
  let reports: string[];
  let deliveries: Delivery[];

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'local-usage-queue-'));
    deadLetterFile = join(dir, 'usage-dead-letters.jsonl');
    reports = [];
    deliveries = [];
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  /** A queue whose deliveries are recorded; `answer` decides each batch's response (default: all good). */
  function queue(answer: (event: SQSEvent, call: number) => Promise<SQSBatchResponse | void> = async () => undefined, options: Partial<LocalUsageQueueOptions> = {}) {
    return new LocalUsageQueue({
      deliver: (event) => {
        deliveries.push({ at: Date.now(), records: event.Records });
        return answer(event, deliveries.length);
      },
      deadLetterFile,
      report: (message) => reports.push(message),
      batchSize: 10,
      batchWindowMs: 5,
      retryDelayMs: 5,
      maxReceiveCount: 3,
      ...options,
    });
  }

  const failing = (...messageIds: string[]): SQSBatchResponse => ({ batchItemFailures: messageIds.map((itemIdentifier) => ({ itemIdentifier })) });
  const bodiesOf = (delivery: Delivery | undefined) => (delivery?.records ?? []).map((record) => record.body);
  const receiveCounts = (messageId: string) =>
    deliveries.flatMap((delivery) => delivery.records.filter((record) => record.messageId === messageId).map((record) => record.attributes.ApproximateReceiveCount));

  it('delivers full batches of batchSize at once and waits out the batch window only for the partial rest', async () => {
    vi.useFakeTimers();
    try {
      const usage = queue(async () => undefined, { batchSize: 10, batchWindowMs: 40 });
      const records = Array.from({ length: 25 }, () => sampleRecord());
      for (const record of records) await usage.send(record);

      // The two full batches go at once (Node's shortest timer is 1 ms), one after the other; the rest waits.
      await vi.advanceTimersByTimeAsync(2);
      expect(deliveries.map((delivery) => delivery.records.length)).toEqual([10, 10]);
      await vi.advanceTimersByTimeAsync(38);
      expect(deliveries).toHaveLength(2);
      // The batch window (40 ms after the last full batch) closes: the rest goes.
      await vi.advanceTimersByTimeAsync(5);
      expect(deliveries.map((delivery) => delivery.records.length)).toEqual([10, 10, 5]);
      expect(deliveries.flatMap(bodiesOf)).toEqual(records.map((record) => JSON.stringify(record)));
    } finally {
      vi.useRealTimers();
    }
  });

  it('hands the writer SQS-shaped records: message id, JSON body, receive count, MD5 of the body', async () => {
    const usage = queue();
    const record = sampleRecord({ attribution: { title: 'Ünïcode ✓' } });

    await usage.send(record);
    await usage.drain();

    const message = deliveries[0]?.records[0];
    expect(message).toMatchObject({
      body: JSON.stringify(record),
      md5OfBody: createHash('md5').update(JSON.stringify(record)).digest('hex'),
      eventSource: 'aws:sqs',
      attributes: { ApproximateReceiveCount: '1' },
    });
    expect(message?.messageId).toMatch(/^[0-9a-f-]{36}$/);
    expect(Number(message?.attributes.SentTimestamp)).toBeGreaterThan(0);
  });

  it('redelivers only the message a partial batch failure names, with the same id and a higher receive count', async () => {
    const usage = queue(async (event, call) => (call === 1 ? failing(event.Records[1]?.messageId ?? '') : undefined));
    const records = [sampleRecord(), sampleRecord(), sampleRecord()];

    for (const record of records) await usage.send(record);
    await usage.drain();

    expect(deliveries).toHaveLength(2);
    const failed = deliveries[0]?.records[1];
    expect(deliveries[1]?.records.map((record) => record.messageId)).toEqual([failed?.messageId]);
    expect(bodiesOf(deliveries[1])).toEqual([JSON.stringify(records[1])]);
    expect(receiveCounts(failed?.messageId ?? '')).toEqual(['1', '2']);
    expect(reports).toEqual([]);
  });

  it('appends a message that failed maxReceiveCount times to the dead-letter file and reports it', async () => {
    const poison = sampleRecord({ projectId: 'poison' });
    const usage = queue(async (event) => failing(...event.Records.filter((record) => record.body.includes('"poison"')).map((record) => record.messageId)));

    await usage.send(sampleRecord());
    await usage.send(poison);
    await usage.drain();

    const poisonId = deliveries[0]?.records[1]?.messageId ?? '';
    expect(receiveCounts(poisonId)).toEqual(['1', '2', '3']);
    const lines = (await readFile(deadLetterFile, 'utf8')).split('\n').filter((line) => line !== '');
    expect(lines.map((line) => JSON.parse(line))).toEqual([{ messageId: poisonId, receiveCount: 3, body: JSON.stringify(poison) }]);
    expect(reports).toHaveLength(1);
    expect(reports[0]).toContain(poisonId);
    expect(reports[0]).toContain(deadLetterFile);
  });

  it('retries the whole batch when the writer throws', async () => {
    const usage = queue(async (_event, call) => {
      if (call === 1) throw new Error('writer crashed');
    });

    await usage.send(sampleRecord());
    await usage.send(sampleRecord());
    await usage.drain();

    expect(deliveries).toHaveLength(2);
    expect(deliveries[1]?.records.map((record) => record.messageId)).toEqual(deliveries[0]?.records.map((record) => record.messageId));
    expect(deliveries[1]?.records.map((record) => record.attributes.ApproximateReceiveCount)).toEqual(['2', '2']);
    expect(reports).toEqual(['usage writer failed a whole batch: writer crashed']);
  });

  it('dead-letters every message of a batch the writer keeps throwing on', async () => {
    const usage = queue(async () => {
      throw new Error('always down');
    });
    const records = [sampleRecord(), sampleRecord()];

    for (const record of records) await usage.send(record);
    await usage.drain();

    expect(deliveries).toHaveLength(3);
    const lines = (await readFile(deadLetterFile, 'utf8')).trim().split('\n');
    expect(lines.map((line) => (JSON.parse(line) as { body: string }).body).sort()).toEqual(records.map((record) => JSON.stringify(record)).sort());
  });

  it('drain resolves at once when nothing was sent', async () => {
    await queue().drain();

    expect(deliveries).toEqual([]);
  });

  it('drain resolves only after retries succeeded and poison messages were dead-lettered', async () => {
    let calls = 0;
    const usage = queue(
      async (event) => {
        calls += 1;
        const retried = event.Records.filter((record) => record.body.includes('"flaky"') && record.attributes.ApproximateReceiveCount !== '3');
        const poison = event.Records.filter((record) => record.body.includes('"poison"'));
        return failing(...[...retried, ...poison].map((record) => record.messageId));
      },
      { retryDelayMs: 20 },
    );

    await usage.send(sampleRecord({ projectId: 'flaky' }));
    await usage.send(sampleRecord({ projectId: 'poison' }));
    await usage.drain();

    expect(calls).toBe(3);
    expect(deliveries.at(-1)?.records.map((record) => record.attributes.ApproximateReceiveCount)).toEqual(['3', '3']);
    expect((await readFile(deadLetterFile, 'utf8')).trim().split('\n')).toHaveLength(1);
  });

  it('retries the messages of a batch that failed together in one batch, even when the clock ticks between readings', async () => {
    vi.useFakeTimers();
    const fakeNow = Date.now.bind(Date);
    // After the first delivery's answer, the clock moves on 1 ms after each of the next two readings.
    let tickingReadings = 0;
    const now = vi.spyOn(Date, 'now').mockImplementation(() => {
      const reading = fakeNow();
      if (tickingReadings > 0) {
        tickingReadings -= 1;
        vi.setSystemTime(reading + 1);
      }
      return reading;
    });
    try {
      const usage = queue(
        async (event, call) => {
          if (call > 1) return undefined;
          tickingReadings = 2;
          return failing(...event.Records.map((record) => record.messageId));
        },
        { retryDelayMs: 20 },
      );
      await usage.send(sampleRecord());
      await usage.send(sampleRecord());

      await vi.advanceTimersByTimeAsync(100);

      expect(deliveries.map((delivery) => delivery.records.length)).toEqual([2, 2]);
    } finally {
      now.mockRestore();
      vi.useRealTimers();
    }
  });

  it('drain waits for a delivery that is still in progress', async () => {
    let release: () => void = () => {};
    let started: () => void = () => {};
    const deliveryStarted = new Promise<void>((resolve) => (started = resolve));
    const usage = queue(() => {
      started();
      return new Promise((resolve) => (release = () => resolve(undefined)));
    });
    await usage.send(sampleRecord());
    await deliveryStarted;

    let drained = false;
    const draining = usage.drain().then(() => (drained = true));
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(drained).toBe(false);

    release();
    await draining;
    expect(drained).toBe(true);
    expect(deliveries).toHaveLength(1);
  });
});

describe('LocalUsageQueue behind a large backlog', () => {
  it('delivers a backlog of more messages than a function call takes as arguments, each once', { timeout: 60_000 }, async () => {
    // ~125,000 spread arguments overflow V8's stack; a stalled writer or a long burst can queue more.
    const backlog = 200_000;
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const delivered = new Map<string, number>();
    const queue = new LocalUsageQueue({
      deliver: async (event) => {
        await held;
        for (const record of event.Records) delivered.set(record.messageId, (delivered.get(record.messageId) ?? 0) + 1);
      },
      deadLetterFile: '/dev/null',
      report: () => {},
      batchSize: 10_000,
      batchWindowMs: 5,
    });
    const record = sampleRecord();
    for (let index = 0; index < backlog; index++) await queue.send(record);

    release();
    await queue.drain();

    expect(delivered.size).toBe(backlog);
    expect([...delivered.values()].every((times) => times === 1)).toBe(true);
  });
});

describe('LocalUsageQueue with a full batch waiting', () => {
  it('delivers a full batch at once instead of waiting for the batching window', async () => {
    const batches: number[] = [];
    const queue = new LocalUsageQueue({
      deliver: async (event) => {
        batches.push(event.Records.length);
        return { batchItemFailures: [] };
      },
      deadLetterFile: '/dev/null',
      report: () => {},
      batchSize: 3,
      batchWindowMs: 10_000,
    });
    for (let index = 0; index < 3; index++) await queue.send(sampleRecord());

    await expect.poll(() => batches, { timeout: 1_000 }).toEqual([3]);
  });
});
