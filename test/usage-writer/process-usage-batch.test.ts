import type { SQSRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import type { UsageArchive, UsageLedger } from '../../shared/core/ports.ts';
import type { UsageRecord } from '../../shared/core/usage-record.ts';
import { processUsageBatch } from '../../shared/usage-writer/process-usage-batch.ts';
import { sampleRecord, usageMessage } from '../support/sample-usage-record.ts';

interface Failure {
  messageId: string;
  reason: string;
  error: unknown;
}

/** A writer whose ledger and archive remember what they were given and fail for the record ids they are told to. */
function writer(options: { ledgerFailsFor?: string[]; archiveFailsFor?: string[]; alreadyApplied?: string[] } = {}) {
  const recorded: UsageRecord[] = [];
  const archived: UsageRecord[] = [];
  const failures: Failure[] = [];
  const ledger: UsageLedger = {
    async recordOnce(record) {
      if (options.ledgerFailsFor?.includes(record.recordId)) throw new Error(`ledger unavailable for ${record.recordId}`);
      recorded.push(record);
      return !options.alreadyApplied?.includes(record.recordId);
    },
  };
  const archive: UsageArchive = {
    async put(record) {
      if (options.archiveFailsFor?.includes(record.recordId)) throw new Error(`archive unavailable for ${record.recordId}`);
      archived.push(record);
    },
  };
  const reportFailure = (message: SQSRecord, reason: string, error?: unknown) => failures.push({ messageId: message.messageId, reason, error });
  return { deps: { ledger, archive, reportFailure }, recorded, archived, failures };
}

const messageOf = (record: UsageRecord, messageId: string) => usageMessage(JSON.stringify(record), messageId);
const ids = (records: UsageRecord[]) => records.map((record) => record.recordId).sort();

describe('processUsageBatch', () => {
  it('returns no failures and applies every record once when the whole batch is good', async () => {
    const records = [sampleRecord(), sampleRecord({ projectId: 'globex' }), sampleRecord({ streamed: true })];
    const { deps, recorded, archived, failures } = writer();

    const response = await processUsageBatch({ Records: records.map((record, index) => messageOf(record, `m-${index}`)) }, deps);

    expect(response).toEqual({ batchItemFailures: [] });
    expect(ids(recorded)).toEqual(ids(records));
    expect(ids(archived)).toEqual(ids(records));
    expect(recorded.find((record) => record.projectId === 'globex')).toEqual(records[1]);
    expect(failures).toEqual([]);
  });

  it('returns no failures for an empty batch', async () => {
    const { deps, failures } = writer();

    await expect(processUsageBatch({ Records: [] }, deps)).resolves.toEqual({ batchItemFailures: [] });
    expect(failures).toEqual([]);
  });

  it('reports a body that is not JSON and returns it as a batch item failure without touching the stores', async () => {
    const good = sampleRecord();
    const { deps, recorded, archived, failures } = writer();

    const response = await processUsageBatch({ Records: [usageMessage('{"version":1,', 'm-broken'), messageOf(good, 'm-good')] }, deps);

    expect(response).toEqual({ batchItemFailures: [{ itemIdentifier: 'm-broken' }] });
    expect(failures).toEqual([{ messageId: 'm-broken', reason: 'the message body is not JSON', error: undefined }]);
    expect(ids(recorded)).toEqual([good.recordId]);
    expect(ids(archived)).toEqual([good.recordId]);
  });

  it('reports JSON that is not a usage record, naming the offending field', async () => {
    const { recordId: _dropped, ...withoutRecordId } = sampleRecord();
    const { deps, recorded, failures } = writer();

    const response = await processUsageBatch(
      {
        Records: [
          usageMessage(JSON.stringify(withoutRecordId), 'm-no-record-id'),
          usageMessage(JSON.stringify({ ...sampleRecord(), costNanos: -5 }), 'm-negative-cost'),
          usageMessage('[1, 2, 3]', 'm-array'),
        ],
      },
      deps,
    );

    expect(response.batchItemFailures).toEqual([{ itemIdentifier: 'm-no-record-id' }, { itemIdentifier: 'm-negative-cost' }, { itemIdentifier: 'm-array' }]);
    expect(failures.map((failure) => failure.messageId)).toEqual(['m-no-record-id', 'm-negative-cost', 'm-array']);
    expect(failures[0]?.reason).toMatch(/^not a usage record: recordId: /);
    expect(failures[1]?.reason).toMatch(/^not a usage record: costNanos: /);
    expect(failures[2]?.reason).toMatch(/^not a usage record: body: /);
    expect(recorded).toEqual([]);
  });

  it('fails only the record whose ledger write throws, and does not archive it', async () => {
    const records = [sampleRecord(), sampleRecord(), sampleRecord()];
    const broken = records[1]?.recordId ?? '';
    const { deps, recorded, archived, failures } = writer({ ledgerFailsFor: [broken] });

    const response = await processUsageBatch({ Records: records.map((record, index) => messageOf(record, `m-${index}`)) }, deps);

    expect(response).toEqual({ batchItemFailures: [{ itemIdentifier: 'm-1' }] });
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({ messageId: 'm-1', reason: 'applying the record failed' });
    expect(String(failures[0]?.error)).toContain(`ledger unavailable for ${broken}`);
    expect(ids(recorded)).toEqual(ids([records[0], records[2]].filter((record) => record !== undefined)));
    expect(ids(archived)).toEqual(ids(recorded));
  });

  it('fails only the record whose archive write throws, after its ledger write', async () => {
    const records = [sampleRecord(), sampleRecord(), sampleRecord()];
    const broken = records[2]?.recordId ?? '';
    const { deps, recorded, archived, failures } = writer({ archiveFailsFor: [broken] });

    const response = await processUsageBatch({ Records: records.map((record, index) => messageOf(record, `m-${index}`)) }, deps);

    expect(response).toEqual({ batchItemFailures: [{ itemIdentifier: 'm-2' }] });
    expect(failures.map((failure) => [failure.messageId, failure.reason])).toEqual([['m-2', 'applying the record failed']]);
    expect(String(failures[0]?.error)).toContain(`archive unavailable for ${broken}`);
    expect(ids(recorded)).toEqual(ids(records));
    expect(ids(archived)).toEqual(ids(records).filter((id) => id !== broken));
  });

  it('still writes the usage file of a record the ledger had already applied (repairing a crash between the steps)', async () => {
    const record = sampleRecord();
    const { deps, archived, failures } = writer({ alreadyApplied: [record.recordId] });

    const response = await processUsageBatch({ Records: [messageOf(record, 'm-redelivered')] }, deps);

    expect(response).toEqual({ batchItemFailures: [] });
    expect(archived).toEqual([record]);
    expect(failures).toEqual([]);
  });

  it('applies the records of a batch concurrently, so one slow record does not hold up the others', async () => {
    const slow = sampleRecord();
    const fast = sampleRecord();
    let releaseSlow: () => void = () => {};
    const slowGate = new Promise<void>((resolve) => (releaseSlow = resolve));
    const archived: string[] = [];
    const deps = {
      ledger: { recordOnce: async (record: UsageRecord) => (record.recordId === slow.recordId ? slowGate.then(() => true) : true) },
      archive: {
        put: async (record: UsageRecord) => {
          archived.push(record.recordId);
          if (record.recordId === fast.recordId) releaseSlow();
        },
      },
      reportFailure: () => {},
    };

    const response = await processUsageBatch({ Records: [messageOf(slow, 'm-slow'), messageOf(fast, 'm-fast')] }, deps);

    expect(response).toEqual({ batchItemFailures: [] });
    expect(archived).toEqual([fast.recordId, slow.recordId]);
  });

  describe("stamping each key's last use", () => {
    function stamping(options: { failsFor?: string[] } = {}) {
      const stamps: Array<[string, string, string]> = [];
      const keyLastUse = {
        async recordLastUse(projectId: string, keyId: string, usedAt: string) {
          if (options.failsFor?.includes(keyId)) throw new Error(`keys table unavailable for ${keyId}`);
          stamps.push([projectId, keyId, usedAt]);
        },
      };
      return { keyLastUse, stamps };
    }

    it('stamps each key once per batch with the time of its newest record', async () => {
      const records = [
        sampleRecord({ keyId: 'key-a', createdAt: '2025-03-01T10:00:02.000Z' }),
        sampleRecord({ keyId: 'key-a', createdAt: '2025-03-01T10:00:05.000Z' }),
        sampleRecord({ keyId: 'key-a', createdAt: '2025-03-01T10:00:01.000Z' }),
        sampleRecord({ keyId: 'key-b', projectId: 'globex', createdAt: '2025-03-01T09:00:00.000Z' }),
      ];
      const { deps } = writer();
      const { keyLastUse, stamps } = stamping();

      const response = await processUsageBatch({ Records: records.map((record, index) => messageOf(record, `m-${index}`)) }, { ...deps, keyLastUse });

      expect(response).toEqual({ batchItemFailures: [] });
      expect(stamps.sort()).toEqual([
        ['acme', 'key-a', '2025-03-01T10:00:05.000Z'],
        ['globex', 'key-b', '2025-03-01T09:00:00.000Z'],
      ]);
    });

    it('does not stamp from a record that failed to apply', async () => {
      const failing = sampleRecord({ keyId: 'key-c' });
      const { deps } = writer({ ledgerFailsFor: [failing.recordId] });
      const { keyLastUse, stamps } = stamping();

      const response = await processUsageBatch({ Records: [messageOf(failing, 'm-1')] }, { ...deps, keyLastUse });

      expect(response).toEqual({ batchItemFailures: [{ itemIdentifier: 'm-1' }] });
      expect(stamps).toEqual([]);
    });

    it("fails only that key's messages when its stamp cannot be written, so redelivery stamps it", async () => {
      const records = [sampleRecord({ keyId: 'key-down' }), sampleRecord({ keyId: 'key-up' }), sampleRecord({ keyId: 'key-down' })];
      const { deps, failures, recorded } = writer();
      const { keyLastUse, stamps } = stamping({ failsFor: ['key-down'] });

      const response = await processUsageBatch({ Records: records.map((record, index) => messageOf(record, `m-${index}`)) }, { ...deps, keyLastUse });

      expect(response.batchItemFailures.map((failure) => failure.itemIdentifier).sort()).toEqual(['m-0', 'm-2']);
      expect(stamps.map(([, keyId]) => keyId)).toEqual(['key-up']);
      expect(recorded).toHaveLength(3);
      expect(failures.map((failure) => failure.reason)).toEqual(["stamping the key's last use failed", "stamping the key's last use failed"]);
    });
  });
});
