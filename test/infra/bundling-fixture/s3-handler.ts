// A handler that calls S3 through the SDK's client: its XML protocol is reached through the SDK's barrel
// files (`@aws-sdk/core/protocols`), whose imports the bundle points at the defining files.
import { ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';

export async function handler(endpoint: string): Promise<{ etag: string | undefined; keys: string[]; truncated: boolean | undefined }> {
  const s3 = new S3Client({ region: 'us-east-1', endpoint, forcePathStyle: true, credentials: { accessKeyId: 'AKIDBUNDLE', secretAccessKey: 'bundle-secret' } });
  const put = await s3.send(new PutObjectCommand({ Bucket: 'usage', Key: 'a.json', Body: '{}' }));
  const listed = await s3.send(new ListObjectsV2Command({ Bucket: 'usage', Prefix: 'a' }));
  return { etag: put.ETag, keys: (listed.Contents ?? []).map((object) => object.Key ?? ''), truncated: listed.IsTruncated };
}
