import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DynamoDocuments } from '../../../shared/adapters/aws/dynamo-documents.ts';
import type { DynamoUsageLedger } from '../../../shared/adapters/aws/dynamo-usage-ledger.ts';
import type { UsageRecord } from '../../../shared/core/usage-record.ts';
import { sampleRecord } from '../../support/sample-usage-record.ts';
import { embeddedLedger } from '../../support/usage-ledger-fixtures.ts';

describe('DynamoUsageLedger: recording usage', () => {
  describe('on the embedded store', () => {
    let embedded: Awaited<ReturnType<typeof embeddedLedger>>;
    let ledger: DynamoUsageLedger;
    let documents: DynamoDocuments;
    let names: Awaited<ReturnType<typeof embeddedLedger>>['names'];
    const usageOf = (projectId: string) => embedded.usageOf(projectId);

    beforeAll(async () => {
      embedded = await embeddedLedger();
      ({ ledger, documents, names } = embedded);
    });
    afterAll(() => embedded.close());

    it('applies a batch in one transaction: a record applied before is set aside and the rest applied, an id given twice once', async () => {
      const before = sampleRecord({ projectId: 'batch', costNanos: 7 });
      await ledger.recordAll([before]);
      const fresh = [sampleRecord({ projectId: 'batch', costNanos: 100 }), sampleRecord({ projectId: 'batch-other', costNanos: 20 })];
      const twice = sampleRecord({ projectId: 'batch', costNanos: 3_000 });

      await expect(ledger.recordAll([fresh[0] as UsageRecord, before, twice, fresh[1] as UsageRecord, twice])).resolves.toEqual([
        'applied',
        'already-applied',
        'applied',
        'applied',
        'already-applied',
      ]);

      expect(await usageOf('batch')).toMatchObject({ spentNanos: 3_107, requestCount: 3 });
      expect(await usageOf('batch-other')).toMatchObject({ spentNanos: 20, requestCount: 1 });
      await expect(ledger.recordAll([before, twice])).resolves.toEqual(['already-applied', 'already-applied']);
      expect(await usageOf('batch')).toMatchObject({ spentNanos: 3_107, requestCount: 3 });
    });

    it('splits a batch larger than a transaction takes (100 items) and settles prepaid reservations per project', async () => {
      const records = Array.from({ length: 130 }, (_, index) =>
        sampleRecord({ projectId: `split-${index % 3}`, costNanos: 10, prepaid: true, reservedNanos: 25, createdAt: `2025-03-01T10:${String(index % 60).padStart(2, '0')}:00.000Z` }),
      );

      const outcomes = await ledger.recordAll(records);

      expect(outcomes.every((outcome) => outcome === 'applied')).toBe(true);
      for (const project of [0, 1, 2]) {
        const count = records.filter((record) => record.projectId === `split-${project}`).length;
        // Each record's reservation (25) comes back and its cost (10) is taken.
        expect(await usageOf(`split-${project}`)).toMatchObject({ spentNanos: 10 * count, requestCount: count, availableNanos: 15 * count });
      }
    });

    it('counts answer aliases and owner items when it splits a batch into transactions of 100 items', async () => {
      const records = Array.from({ length: 70 }, (_, index) =>
        sampleRecord({ projectId: `aliased-${index % 2}`, endpoint: 'responses', upstreamId: `resp_split_${index}`, answerId: `resp_split_${index}`, costNanos: 10 }),
      );

      await expect(ledger.recordAll(records)).resolves.toEqual(records.map(() => 'applied'));

      for (const project of [0, 1]) expect(await usageOf(`aliased-${project}`)).toMatchObject({ spentNanos: 350, requestCount: 35 });
      await expect(ledger.findGeneration('aliased-1', 'resp_split_69')).resolves.toEqual(records[69]);
    });

    it('applies a record once: true the first time, false for the same record again', async () => {
      const record = sampleRecord({ projectId: 'once', costNanos: 5_000 });

      await expect(ledger.recordOnce(record)).resolves.toBe(true);
      await expect(ledger.recordOnce(record)).resolves.toBe(false);

      expect(await usageOf('once')).toMatchObject({ spentNanos: 5_000, requestCount: 1 });
    });

    it('adds up the spend and request count of distinct records, including two that share a request id', async () => {
      const records = [
        sampleRecord({ projectId: 'adds', costNanos: 1_000, requestId: 'req-shared', createdAt: '2025-03-01T10:00:00.000Z' }),
        sampleRecord({ projectId: 'adds', costNanos: 20_000, requestId: 'req-shared', createdAt: '2025-03-01T10:00:05.000Z' }),
        sampleRecord({ projectId: 'adds', costNanos: 300_000 }),
        sampleRecord({ projectId: 'adds', costNanos: 0 }),
      ];

      for (const record of records) await expect(ledger.recordOnce(record)).resolves.toBe(true);
      await expect(ledger.recordOnce(records[1] ?? sampleRecord())).resolves.toBe(false);

      expect(await usageOf('adds')).toEqual({
        projectId: 'adds',
        itemKey: 'usage',
        spentNanos: 321_000,
        requestCount: 4,
        updatedAt: records[3]?.createdAt,
      });
      await expect(ledger.findGeneration('adds', 'req-shared')).resolves.toEqual(records[1]);
    });

    it('stores the generation item under its key with the TTL attribute', async () => {
      const record = sampleRecord({ projectId: 'ttl', requestId: 'req-ttl', createdAt: '2025-03-01T10:00:00.000Z' });
      await ledger.recordOnce(record);

      const { Item } = await documents.get({ TableName: names.generations, Key: { generationKey: 'ttl#req-ttl', recordId: record.recordId }, ConsistentRead: true });

      expect(Item).toEqual({ ...record, generationKey: 'ttl#req-ttl', expiresAt: 1_740_823_200 + 30 * 86_400 });
    });
  });
});
