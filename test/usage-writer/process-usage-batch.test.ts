import type { SQSRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import type { UsageLedger } from '../../shared/core/ports.ts';
import type { UsageRecord } from '../../shared/core/usage-record.ts';
import { processUsageBatch } from '../../shared/usage-writer/process-usage-batch.ts';
import { readUsageRows } from '../../shared/usage-writer/usage-parquet-reader.ts';
import { toUsageRow } from '../../shared/usage-writer/usage-row.ts';
import { MemoryUsageArchive } from '../support/memory-usage-archive.ts';
import { sampleRecord, usageMessage } from '../support/sample-usage-record.ts';

interface Failure {
  messageId: string;
  reason: string;
  error: unknown;
}

/** A writer whose ledger remembers what it was given and fails for the record ids it is told to; files in memory. */
function writer(options: { ledgerFailsFor?: string[]; fileFailsWith?: string[]; alreadyApplied?: string[] } = {}) {
  const recorded: UsageRecord[] = [];
  const failures: Failure[] = [];
  const ledger: UsageLedger = {
    async recordAll(records) {
      return records.map((record) => {
        if (options.ledgerFailsFor?.includes(record.recordId)) return { failed: new Error(`ledger unavailable for ${record.recordId}`) };
        recorded.push(record);
        return options.alreadyApplied?.includes(record.recordId) ? 'already-applied' : 'applied';
      });
    },
  };
  const archive = new MemoryUsageArchive();
  const write = archive.write.bind(archive);
  archive.write = async (key, body) => {
    const held = (await readUsageRows(key, body)).map((row) => row.record_id);
    if (options.fileFailsWith?.some((id) => held.includes(id))) throw new Error(`S3 unavailable for ${key}`);
    await write(key, body);
  };
  const reportFailure = (message: SQSRecord, reason: string, error?: unknown) => failures.push({ messageId: message.messageId, reason, error });
  return { deps: { ledger, archive, reportFailure }, recorded, archive, failures };
}

/** The record ids in the usage files, per file, each list sorted. */
async function filesOf(archive: MemoryUsageArchive): Promise<string[][]> {
  return [...(await archive.rowsByKey()).values()].map((rows) => rows.map((row) => String(row.record_id)).sort());
}

const messageOf = (record: UsageRecord, messageId: string) => usageMessage(JSON.stringify(record), messageId);
/** The records' ids, sorted unless asked to keep their order. */
const ids = (records: UsageRecord[], sorted = true) => {
  const list = records.map((record) => record.recordId);
  return sorted ? list.sort() : list;
};

describe('processUsageBatch', () => {
  it('applies every record once and writes them all to one usage file of their day', async () => {
    const records = [sampleRecord(), sampleRecord({ projectId: 'globex' }), sampleRecord({ streamed: true })];
    const { deps, recorded, archive, failures } = writer();

    const response = await processUsageBatch({ Records: records.map((record, index) => messageOf(record, `m-${index}`)) }, deps);

    expect(response).toEqual({ batchItemFailures: [] });
    expect(ids(recorded)).toEqual(ids(records));
    expect(recorded.find((record) => record.projectId === 'globex')).toEqual(records[1]);
    expect(archive.writes).toEqual([expect.stringMatching(/^usage\/dt=2025-03-01\/batch-[0-9a-f]{32}\.parquet$/)]);
    const rows = [...(await archive.rowsByKey()).values()][0];
    expect(rows).toEqual(expect.arrayContaining(records.map(toUsageRow)));
    expect(rows).toHaveLength(3);
    expect(failures).toEqual([]);
  });

  it("writes every column of both later additions to the Parquet file: units beyond tokens and the editor's compression savings", async () => {
    const records = [
      sampleRecord({ endpoint: 'audio.speech', units: { requests: 1, characters: 42 } }),
      sampleRecord({ endpoint: 'editor.chat_completions', compressionSavedTokens: 1_200 }),
    ];
    const { deps, archive } = writer();

    await processUsageBatch({ Records: records.map((record, index) => messageOf(record, `m-${index}`)) }, deps);

    const rows = [...(await archive.rowsByKey()).values()][0] ?? [];
    expect(rows.find((row) => row.endpoint === 'audio.speech')).toMatchObject({ units_requests: 1, units_characters: 42, units_images: null, compression_saved_tokens: null });
    expect(rows.find((row) => row.endpoint === 'editor.chat_completions')).toMatchObject({ compression_saved_tokens: 1_200, units_requests: null, units_video_seconds: null });
  });

  it('writes one file per day when a batch spans midnight', async () => {
    const before = sampleRecord({ createdAt: '2025-03-01T23:59:59.999Z' });
    const after = sampleRecord({ createdAt: '2025-03-02T00:00:00.000Z' });
    const { deps, archive } = writer();

    await processUsageBatch({ Records: [messageOf(before, 'm-1'), messageOf(after, 'm-2')] }, deps);

    expect(archive.writes.map((key) => key.slice(0, 'usage/dt=2025-03-01/'.length)).sort()).toEqual(['usage/dt=2025-03-01/', 'usage/dt=2025-03-02/']);
    expect((await filesOf(archive)).sort()).toEqual([[before.recordId], [after.recordId]]);
  });

  it('writes nothing and fails nothing for an empty batch', async () => {
    const { deps, archive, failures } = writer();

    await expect(processUsageBatch({ Records: [] }, deps)).resolves.toEqual({ batchItemFailures: [] });
    expect(archive.writes).toEqual([]);
    expect(failures).toEqual([]);
  });

  it('reports a body that is not JSON and returns it as a batch item failure without touching the stores', async () => {
    const good = sampleRecord();
    const { deps, recorded, archive, failures } = writer();

    const response = await processUsageBatch({ Records: [usageMessage('{"version":1,', 'm-broken'), messageOf(good, 'm-good')] }, deps);

    expect(response).toEqual({ batchItemFailures: [{ itemIdentifier: 'm-broken' }] });
    expect(failures).toEqual([{ messageId: 'm-broken', reason: 'the message body is not JSON', error: undefined }]);
    expect(ids(recorded)).toEqual([good.recordId]);
    expect(await filesOf(archive)).toEqual([[good.recordId]]);
  });

  it('reports JSON that is not a usage record, naming the offending field', async () => {
    const { recordId: _dropped, ...withoutRecordId } = sampleRecord();
    const { deps, recorded, archive, failures } = writer();

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
    expect(archive.writes).toEqual([]);
  });

  it('fails only the record whose ledger write throws, and leaves it out of the usage file', async () => {
    const records = [sampleRecord(), sampleRecord(), sampleRecord()];
    const broken = records[1]?.recordId ?? '';
    const { deps, recorded, archive, failures } = writer({ ledgerFailsFor: [broken] });

    const response = await processUsageBatch({ Records: records.map((record, index) => messageOf(record, `m-${index}`)) }, deps);

    expect(response).toEqual({ batchItemFailures: [{ itemIdentifier: 'm-1' }] });
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({ messageId: 'm-1', reason: 'applying the record failed' });
    expect(String(failures[0]?.error)).toContain(`ledger unavailable for ${broken}`);
    expect(ids(recorded)).toEqual(ids([records[0], records[2]].filter((record) => record !== undefined)));
    expect(await filesOf(archive)).toEqual([ids(recorded)]);
  });

  it('fails every message of a usage file that could not be written, and only those', async () => {
    const sameDay = [sampleRecord({ createdAt: '2025-03-01T10:00:00Z' }), sampleRecord({ createdAt: '2025-03-01T11:00:00Z' })];
    const nextDay = sampleRecord({ createdAt: '2025-03-02T10:00:00Z' });
    const { deps, recorded, archive, failures } = writer({ fileFailsWith: [sameDay[0]?.recordId ?? ''] });

    const response = await processUsageBatch({ Records: [...sameDay, nextDay].map((record, index) => messageOf(record, `m-${index}`)) }, deps);

    expect(response).toEqual({ batchItemFailures: [{ itemIdentifier: 'm-0' }, { itemIdentifier: 'm-1' }] });
    expect(failures.map((failure) => [failure.messageId, failure.reason])).toEqual([
      ['m-0', 'writing the usage file failed'],
      ['m-1', 'writing the usage file failed'],
    ]);
    expect(String(failures[0]?.error)).toContain('S3 unavailable for usage/dt=2025-03-01/');
    expect(ids(recorded)).toEqual(ids([...sameDay, nextDay]));
    expect(await filesOf(archive)).toEqual([[nextDay.recordId]]);
  });

  it('still writes a record the ledger had already applied (repairing a crash between the steps)', async () => {
    const record = sampleRecord();
    const { deps, archive, failures } = writer({ alreadyApplied: [record.recordId] });

    const response = await processUsageBatch({ Records: [messageOf(record, 'm-redelivered')] }, deps);

    expect(response).toEqual({ batchItemFailures: [] });
    expect(await filesOf(archive)).toEqual([[record.recordId]]);
    expect(failures).toEqual([]);
  });

  it('puts a record delivered twice in one batch in its file once, and succeeds for both messages', async () => {
    const record = sampleRecord();
    const other = sampleRecord();
    const { deps, archive } = writer();

    const response = await processUsageBatch({ Records: [messageOf(record, 'm-1'), messageOf(other, 'm-2'), messageOf(record, 'm-3')] }, deps);

    expect(response).toEqual({ batchItemFailures: [] });
    expect(await filesOf(archive)).toEqual([ids([record, other])]);
  });

  it('writes the same key with the same bytes when the same records are delivered again', async () => {
    const records = [sampleRecord(), sampleRecord()];
    const { deps, archive } = writer();

    await processUsageBatch({ Records: records.map((record, index) => messageOf(record, `m-${index}`)) }, deps);
    const [key = ''] = archive.writes;
    const first = archive.objects.get(key);
    await processUsageBatch({ Records: [...records].reverse().map((record, index) => messageOf(record, `again-${index}`)) }, deps);

    expect(archive.writes).toEqual([key, key]);
    expect(archive.objects.get(key)).toEqual(first);
  });

  it('hands the batch to the ledger in one call, so its records are written together, and files what it applied', async () => {
    const records = [sampleRecord(), sampleRecord(), sampleRecord()];
    const calls: string[][] = [];
    const archive = new MemoryUsageArchive();
    const deps = {
      ledger: {
        recordAll: async (given: readonly UsageRecord[]) => {
          calls.push(given.map((record) => record.recordId));
          return given.map(() => 'applied' as const);
        },
      },
      archive,
      reportFailure: () => {},
    };

    const response = await processUsageBatch({ Records: [...records.map((record, index) => messageOf(record, `m-${index}`)), { ...messageOf(records[0] as UsageRecord, 'm-bad'), body: '{' }] }, deps);

    expect(response).toEqual({ batchItemFailures: [{ itemIdentifier: 'm-bad' }] });
    expect(calls).toEqual([ids(records, false)]);
    expect(await filesOf(archive)).toEqual([ids(records)]);
  });

  it('fails every record of the batch, and writes no file, when the ledger fails as a whole', async () => {
    const records = [sampleRecord(), sampleRecord()];
    const archive = new MemoryUsageArchive();
    const failures: string[] = [];
    const deps = {
      ledger: { recordAll: async () => Promise.reject(new Error('DynamoDB unreachable')) },
      archive,
      reportFailure: (message: SQSRecord, reason: string) => failures.push(`${message.messageId}: ${reason}`),
    };

    const response = await processUsageBatch({ Records: records.map((record, index) => messageOf(record, `m-${index}`)) }, deps);

    expect(response.batchItemFailures).toEqual([{ itemIdentifier: 'm-0' }, { itemIdentifier: 'm-1' }]);
    expect(failures).toEqual(['m-0: applying the record failed', 'm-1: applying the record failed']);
    expect(archive.writes).toEqual([]);
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
