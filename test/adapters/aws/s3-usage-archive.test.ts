import { DeleteObjectsCommand, GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { mockClient, type AwsClientStub } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { S3UsageArchive } from '../../../shared/adapters/aws/s3-usage-archive.ts';

/** A GetObject body as the SDK returns it: a stream that can turn into bytes. */
function bodyOf(bytes: Uint8Array) {
  return { transformToByteArray: async () => bytes } as never;
}

describe('S3UsageArchive', () => {
  let s3: AwsClientStub<S3Client>;
  let archive: S3UsageArchive;

  beforeAll(() => {
    s3 = mockClient(S3Client);
    archive = new S3UsageArchive(new S3Client({ region: 'us-east-1' }), 'acct-usage-bucket');
  });
  afterEach(() => s3.reset());
  afterAll(() => s3.restore());

  it('puts a usage file at its key in the bucket, as Parquet', async () => {
    s3.on(PutObjectCommand).resolves({});
    const body = new Uint8Array([0x50, 0x41, 0x52, 0x31]);

    await archive.write('usage/dt=2025-12-31/batch-abc.parquet', body);

    expect(s3.commandCalls(PutObjectCommand).map((call) => call.args[0].input)).toEqual([
      { Bucket: 'acct-usage-bucket', Key: 'usage/dt=2025-12-31/batch-abc.parquet', Body: body, ContentType: 'application/vnd.apache.parquet' },
    ]);
  });

  it('lists every key under a prefix, following continuation tokens', async () => {
    const requests: unknown[] = [];
    const pages = [
      { Contents: [{ Key: 'usage/dt=2025-03-01/a.parquet' }], IsTruncated: true, NextContinuationToken: 'page-2' },
      { Contents: [{ Key: 'usage/dt=2025-03-01/b.parquet' }], IsTruncated: false },
    ];
    // A copy of each request as sent: the paginator reuses one input object.
    s3.on(ListObjectsV2Command).callsFake((input: Record<string, unknown>) => {
      requests.push({ Bucket: input.Bucket, Prefix: input.Prefix, ContinuationToken: input.ContinuationToken });
      return pages[requests.length - 1];
    });

    expect(await archive.list('usage/dt=2025-03-01/')).toEqual(['usage/dt=2025-03-01/a.parquet', 'usage/dt=2025-03-01/b.parquet']);
    expect(requests).toEqual([
      { Bucket: 'acct-usage-bucket', Prefix: 'usage/dt=2025-03-01/', ContinuationToken: undefined },
      { Bucket: 'acct-usage-bucket', Prefix: 'usage/dt=2025-03-01/', ContinuationToken: 'page-2' },
    ]);
  });

  it('lists nothing for an empty prefix', async () => {
    s3.on(ListObjectsV2Command).resolves({ KeyCount: 0, IsTruncated: false });

    expect(await archive.list('usage/dt=2025-03-02/')).toEqual([]);
  });

  it('reads an object back as bytes', async () => {
    s3.on(GetObjectCommand, { Bucket: 'acct-usage-bucket', Key: 'usage/dt=2025-03-01/a.parquet' }).resolves({ Body: bodyOf(new Uint8Array([1, 2, 3])) });

    expect(await archive.read('usage/dt=2025-03-01/a.parquet')).toEqual(new Uint8Array([1, 2, 3]));
  });

  it('removes keys with DeleteObjects, at most 1000 per request', async () => {
    s3.on(DeleteObjectsCommand).resolves({});
    const keys = Array.from({ length: 1001 }, (_, index) => `usage/dt=2025-03-01/batch-${index}.parquet`);

    await archive.remove(keys);

    const requests = s3.commandCalls(DeleteObjectsCommand).map((call) => call.args[0].input);
    expect(requests.map((input) => input.Delete?.Objects?.length)).toEqual([1000, 1]);
    expect(requests[1]).toEqual({ Bucket: 'acct-usage-bucket', Delete: { Objects: [{ Key: keys[1000] }], Quiet: true } });
  });

  it('sends nothing to remove no keys', async () => {
    await archive.remove([]);

    expect(s3.commandCalls(DeleteObjectsCommand)).toEqual([]);
  });

  it('throws when S3 reports keys it could not delete', async () => {
    s3.on(DeleteObjectsCommand).resolves({ Errors: [{ Key: 'usage/dt=2025-03-01/a.parquet', Code: 'AccessDenied', Message: 'Access Denied' }] });

    await expect(archive.remove(['usage/dt=2025-03-01/a.parquet'])).rejects.toThrow(/did not delete 1 usage files, e\.g\. usage\/dt=2025-03-01\/a\.parquet: AccessDenied/);
  });

  it('rejects when S3 refuses the object', async () => {
    s3.on(PutObjectCommand).rejects(new Error('Access Denied'));

    await expect(archive.write('usage/dt=2025-03-01/a.parquet', new Uint8Array())).rejects.toThrow('Access Denied');
  });
});
