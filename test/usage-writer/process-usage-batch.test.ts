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
    async recordOnce(record) {
      if (options.ledgerFailsFor?.includes(record.recordId)) throw new Error(`ledger unavailable for ${record.recordId}`);
      recorded.push(record);
      return !options.alreadyApplied?.includes(record.recordId);
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
const ids = (records: UsageRecord[]) => records.map((record) => record.recordId).sort();

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

  it('applies the records of a batch concurrently, so one slow record does not hold up the others', async () => {
    const slow = sampleRecord();
    const fast = sampleRecord();
    let releaseSlow: () => void = () => {};
    const slowGate = new Promise<void>((resolve) => (releaseSlow = resolve));
    const archive = new MemoryUsageArchive();
    const deps = {
      ledger: {
        recordOnce: async (record: UsageRecord) => {
          // The slow record's transaction only finishes once the fast one has started.
          if (record.recordId === slow.recordId) await slowGate;
          else releaseSlow();
          return true;
        },
      },
      archive,
      reportFailure: () => {},
    };

    const response = await processUsageBatch({ Records: [messageOf(slow, 'm-slow'), messageOf(fast, 'm-fast')] }, deps);

    expect(response).toEqual({ batchItemFailures: [] });
    expect(await filesOf(archive)).toEqual([ids([slow, fast])]);
  });
});
