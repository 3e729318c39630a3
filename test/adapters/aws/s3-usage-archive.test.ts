import { DeleteObjectsCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { mockClient, type AwsClientStub } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { S3UsageArchive } from '../../../shared/adapters/aws/s3-usage-archive.ts';
import { S3UsageListing } from '../../../shared/adapters/aws/s3-usage-listing.ts';
import { createNodeHttpFetch } from '../../../shared/transport/node-http-fetch.ts';
import { S3Objects } from '../../../shared/transport/s3-objects.ts';
import { startFakeS3, type FakeS3 } from '../../support/fake-s3.ts';

const ROLE = { accessKeyId: 'AKIDWRITERROLE000001', secretAccessKey: 'writer-role-secret-0123456789', sessionToken: 'writer-session' };

/** S3's objects as the functions call them (signed, no wait between tries), at `endpoint`. */
function objectsAt(endpoint: string | undefined, credentials = ROLE, fetch = createNodeHttpFetch({ allowPrivateAddresses: true })): S3Objects {
  return new S3Objects({ region: 'us-east-1', endpoint, credentials: async () => credentials, fetch, timing: { sleep: async () => undefined } });
}

describe('S3UsageArchive', () => {
  let s3: AwsClientStub<S3Client>;
  let fake: FakeS3;
  let archive: S3UsageArchive;
  let listingsLoaded = 0;

  beforeAll(async () => {
    s3 = mockClient(S3Client);
    fake = await startFakeS3({ signedWith: { [ROLE.accessKeyId]: { secretAccessKey: ROLE.secretAccessKey, sessionToken: ROLE.sessionToken } } });
    const listing = new S3UsageListing(new S3Client({ region: 'us-east-1' }), 'acct-usage-bucket');
    archive = new S3UsageArchive(objectsAt(fake.endpoint), 'acct-usage-bucket', async () => (listingsLoaded++, listing));
  });
  afterEach(() => {
    s3.reset();
    fake.calls.length = 0;
  });
  afterAll(async () => {
    s3.restore();
    await fake.close();
  });

  it('puts a usage file at its key in the bucket, as Parquet, in a signed PutObject, without loading the listing', async () => {
    const body = new Uint8Array([0x50, 0x41, 0x52, 0x31, 0x00, 0xff]);

    await archive.write('usage/dt=2025-12-31/batch-abc.parquet', body);

    expect(fake.calls).toEqual([{ operation: 'PutObject', bucket: 'acct-usage-bucket', key: 'usage/dt=2025-12-31/batch-abc.parquet', contentType: 'application/vnd.apache.parquet' }]);
    expect([...(fake.objects.get('acct-usage-bucket/usage/dt=2025-12-31/batch-abc.parquet') ?? [])]).toEqual([...body]);
    expect(listingsLoaded).toBe(0);
  });

  it('reads an object back as bytes, whatever characters its key holds', async () => {
    const key = "usage/dt=2025-03-01/a b+c'(1)*.parquet";
    await archive.write(key, new Uint8Array([1, 2, 3]));

    expect(await archive.read(key)).toEqual(new Uint8Array([1, 2, 3]));
  });

  it('rejects a missing object with an error named NoSuchKey, without trying again', async () => {
    await expect(archive.read('usage/dt=2025-03-01/missing.parquet')).rejects.toMatchObject({ name: 'NoSuchKey', status: 404 });
    expect(fake.calls).toHaveLength(1);
  });

  it('tries a put again when S3 asks to slow down (503 SlowDown), and rejects when S3 refuses it for good', async () => {
    fake.refuseNext('SlowDown', 503, 2);
    await archive.write('usage/dt=2025-03-01/retried.parquet', new Uint8Array([7]));
    expect(fake.calls.map((call) => call.operation)).toEqual(['PutObject', 'PutObject', 'PutObject']);

    fake.refuseNext('AccessDenied', 403);
    await expect(archive.write('usage/dt=2025-03-01/a.parquet', new Uint8Array())).rejects.toThrow(/403 AccessDenied/);
  });

  it('is refused when its signature is wrong', async () => {
    const forged = new S3UsageArchive(objectsAt(fake.endpoint, { ...ROLE, secretAccessKey: 'not-the-secret' }), 'acct-usage-bucket', async () => {
      throw new Error('not listed');
    });

    await expect(forged.write('usage/dt=2025-03-01/forged.parquet', new Uint8Array([1]))).rejects.toMatchObject({ name: 'SignatureDoesNotMatch' });
    expect(fake.calls).toHaveLength(0);
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
});

describe('S3Objects addresses', () => {
  it('reaches a bucket at its virtual host, a bucket with dots and any bucket behind an endpoint by path, as the SDK does', async () => {
    const urls: string[] = [];
    const recording = (async (url: string) => {
      urls.push(url);
      return new Response('', { status: 200 });
    }) as never;

    await objectsAt(undefined, ROLE, recording).put('usage-bucket', 'usage/dt=2025-03-01/a.parquet', new Uint8Array([1]), 'application/octet-stream');
    await objectsAt(undefined, ROLE, recording).put('usage.bucket', 'a b.parquet', new Uint8Array([1]), 'application/octet-stream');
    await objectsAt('https://bucket.vpce-0123.s3.us-east-1.vpce.amazonaws.com', ROLE, recording).put('usage-bucket', 'k', new Uint8Array([1]), 'application/octet-stream');

    expect(urls).toEqual([
      'https://usage-bucket.s3.us-east-1.amazonaws.com/usage/dt%3D2025-03-01/a.parquet',
      'https://s3.us-east-1.amazonaws.com/usage.bucket/a%20b.parquet',
      'https://bucket.vpce-0123.s3.us-east-1.vpce.amazonaws.com/usage-bucket/k',
    ]);
  });
});
