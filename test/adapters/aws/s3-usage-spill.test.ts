import { DeleteObjectCommand, GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { S3UsageSpill } from '../../../shared/adapters/aws/s3-usage-spill.ts';
import { sampleRecord } from '../../support/sample-usage-record.ts';

const s3 = mockClient(S3Client);
afterEach(() => s3.reset());
afterAll(() => s3.restore());
const spill = new S3UsageSpill(new S3Client({ region: 'us-east-1' }), 'usage-bucket');

describe('S3UsageSpill', () => {
  it('puts a refused record under spill/, one object named by its record id', async () => {
    s3.on(PutObjectCommand).resolves({});
    const record = sampleRecord();
    await spill.put(record);
    expect(s3.commandCalls(PutObjectCommand)[0]?.args[0].input).toEqual({
      Bucket: 'usage-bucket',
      Key: `spill/${record.recordId}.json`,
      Body: JSON.stringify(record),
      ContentType: 'application/json',
    });
  });

  it('lists every page of spill/, reads a record back through the schema, and deletes it', async () => {
    s3.on(ListObjectsV2Command, { Prefix: 'spill/', ContinuationToken: undefined }).resolves({ Contents: [{ Key: 'spill/a.json' }], IsTruncated: true, NextContinuationToken: 't' });
    s3.on(ListObjectsV2Command, { ContinuationToken: 't' }).resolves({ Contents: [{ Key: 'spill/b.json' }], IsTruncated: false });
    const keys: string[] = [];
    for await (const key of spill.keys()) keys.push(key);
    expect(keys).toEqual(['spill/a.json', 'spill/b.json']);

    const record = sampleRecord();
    // The SDK's body mixin, reduced to the one method the adapter calls.
    s3.on(GetObjectCommand).resolves({ Body: { transformToString: async () => JSON.stringify(record) } as never });
    await expect(spill.read('spill/a.json')).resolves.toEqual(record);

    s3.on(DeleteObjectCommand).resolves({});
    await spill.remove('spill/a.json');
    expect(s3.commandCalls(DeleteObjectCommand)[0]?.args[0].input).toEqual({ Bucket: 'usage-bucket', Key: 'spill/a.json' });
  });
});
