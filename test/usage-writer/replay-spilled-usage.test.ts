import { describe, expect, it } from 'vitest';
import type { UsageSink } from '../../shared/core/ports.ts';
import type { UsageRecord } from '../../shared/core/usage-record.ts';
import { replaySpilledUsage, withSpill, type SpilledUsage } from '../../shared/usage-writer/replay-spilled-usage.ts';
import { sampleRecord } from '../support/sample-usage-record.ts';

class MemorySpill implements SpilledUsage {
  readonly objects = new Map<string, UsageRecord>();
  failPuts = false;
  async put(record: UsageRecord) {
    if (this.failPuts) throw new Error('bucket unavailable');
    this.objects.set(`spill/${record.recordId}.json`, record);
  }
  async *keys() {
    yield* [...this.objects.keys()];
  }
  async read(key: string) {
    const record = this.objects.get(key);
    if (!record) throw new Error(`no ${key}`);
    return record;
  }
  async remove(key: string) {
    this.objects.delete(key);
  }
}

/** A queue that refuses everything while `down`. */
function queue() {
  const received: UsageRecord[] = [];
  let down = false;
  const sink: UsageSink = {
    async send(record) {
      if (down) throw new Error('SQS unavailable');
      received.push(record);
    },
  };
  return { sink, received, setDown: (value: boolean) => (down = value) };
}

describe('the usage spill', () => {
  it('walks a refused record from the request path to the queue: spilled, alarmed, replayed, removed', async () => {
    const spill = new MemorySpill();
    const usageQueue = queue();
    const spilled: string[] = [];
    const sink = withSpill(usageQueue.sink, spill, (record) => spilled.push(record.recordId));
    const record = sampleRecord();

    usageQueue.setDown(true);
    await sink.send(record);
    expect(spilled).toEqual([record.recordId]);
    expect([...spill.objects.values()]).toEqual([record]);

    usageQueue.setDown(false);
    const outcome = await replaySpilledUsage(spill, usageQueue.sink, { dryRun: false });
    expect(outcome).toEqual({ replayed: [`spill/${record.recordId}.json`], failed: [] });
    expect(usageQueue.received).toEqual([record]);
    expect(spill.objects.size).toBe(0);
  });

  it('sends straight to the queue and spills nothing while the queue takes records', async () => {
    const spill = new MemorySpill();
    const usageQueue = queue();
    await withSpill(usageQueue.sink, spill, () => expect.fail('nothing to spill')).send(sampleRecord());
    expect(usageQueue.received).toHaveLength(1);
    expect(spill.objects.size).toBe(0);
  });

  it('lets the queue error through when the spill fails too, so the caller logs the record as a last resort', async () => {
    const spill = new MemorySpill();
    spill.failPuts = true;
    const usageQueue = queue();
    usageQueue.setDown(true);
    await expect(withSpill(usageQueue.sink, spill, () => {}).send(sampleRecord())).rejects.toThrow('SQS unavailable');
  });

  it('keeps a record in the spill when the queue still refuses it, and only lists in a dry run', async () => {
    const spill = new MemorySpill();
    const records = [sampleRecord(), sampleRecord()];
    for (const record of records) await spill.put(record);
    const usageQueue = queue();

    expect(await replaySpilledUsage(spill, usageQueue.sink, { dryRun: true })).toMatchObject({ replayed: expect.any(Array), failed: [] });
    expect(spill.objects.size).toBe(2);
    expect(usageQueue.received).toEqual([]);

    usageQueue.setDown(true);
    const outcome = await replaySpilledUsage(spill, usageQueue.sink, { dryRun: false });
    expect(outcome.replayed).toEqual([]);
    expect(outcome.failed.map((failure) => failure.reason)).toEqual(['SQS unavailable', 'SQS unavailable']);
    expect(spill.objects.size).toBe(2);
  });
});
