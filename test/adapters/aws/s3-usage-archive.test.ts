import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { mockClient, type AwsClientStub } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { S3UsageArchive } from '../../../shared/adapters/aws/s3-usage-archive.ts';
import { toUsageRow } from '../../../shared/usage-writer/usage-row.ts';
import { sampleRecord } from '../../support/sample-usage-record.ts';

describe('S3UsageArchive', () => {
  let s3: AwsClientStub<S3Client>;
  let archive: S3UsageArchive;

  beforeAll(() => {
    s3 = mockClient(S3Client);
    archive = new S3UsageArchive(new S3Client({ region: 'us-east-1' }), 'acct-usage-bucket');
  });
  afterEach(() => s3.reset());
  afterAll(() => s3.restore());

  function putInput(index = 0) {
    const input = s3.commandCalls(PutObjectCommand)[index]?.args[0].input;
    if (!input) throw new Error(`no PutObjectCommand #${index} was sent`);
    return input;
  }

  it('puts one object per record at usage/dt=<UTC day of createdAt>/<recordId>.json in the bucket', async () => {
    s3.on(PutObjectCommand).resolves({});
    const record = sampleRecord({ createdAt: '2025-12-31T23:59:59.999Z' });

    await archive.put(record);

    expect(s3.commandCalls(PutObjectCommand)).toHaveLength(1);
    expect(putInput()).toMatchObject({
      Bucket: 'acct-usage-bucket',
      Key: `usage/dt=2025-12-31/${record.recordId}.json`,
      ContentType: 'application/x-ndjson',
    });
  });

  it('writes the body as one newline-terminated JSON line holding the usage row', async () => {
    s3.on(PutObjectCommand).resolves({});
    const record = sampleRecord({ errorCode: 'timeout', status: 'failed', attribution: { title: 'My "App"\nline two' } });

    await archive.put(record);

    const body = putInput().Body;
    expect(typeof body).toBe('string');
    const text = String(body);
    expect(text.endsWith('\n')).toBe(true);
    expect(text.slice(0, -1)).not.toContain('\n');
    expect(JSON.parse(text)).toEqual(toUsageRow(record));
  });

  it('puts the same key and the same bytes when a record is written again', async () => {
    s3.on(PutObjectCommand).resolves({});
    const record = sampleRecord();

    await archive.put(record);
    await archive.put(record);

    expect(putInput(1)).toEqual(putInput(0));
  });

  it('rejects when S3 refuses the object', async () => {
    s3.on(PutObjectCommand).rejects(new Error('Access Denied'));

    await expect(archive.put(sampleRecord())).rejects.toThrow('Access Denied');
  });
});
