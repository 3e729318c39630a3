import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkSigV4, type SigV4Expectation } from './sigv4-check.ts';

export interface S3ObjectCall {
  operation: 'PutObject' | 'GetObject';
  bucket: string;
  key: string;
  contentType?: string;
}

export interface FakeS3 {
  /** For `AWS_ENDPOINT_URL_S3`: buckets by path (`/<bucket>/<key>`), as the SDK addresses them behind an endpoint. */
  endpoint: string;
  /** Every signed PutObject and GetObject that reached the fake (each one an S3 call IAM authorized). */
  readonly calls: S3ObjectCall[];
  /** The objects, by `<bucket>/<key>`. */
  readonly objects: Map<string, Buffer>;
  /** The next `count` calls are refused with this S3 error code and status. */
  refuseNext(code: string, status: number, count?: number): void;
  close(): Promise<void>;
}

/**
 * S3's object calls the gateway makes without the SDK (PutObject, GetObject) on loopback, objects kept in
 * memory; refusals in S3's XML. With `signedWith`, every call must carry a valid SigV4 for `s3`.
 */
export async function startFakeS3(options: { region?: string; signedWith?: SigV4Expectation['credentials'] } = {}): Promise<FakeS3> {
  const calls: S3ObjectCall[] = [];
  const objects = new Map<string, Buffer>();
  const scripted: Array<{ code: string; status: number }> = [];
  const refuse = (response: import('node:http').ServerResponse, status: number, code: string, message: string) =>
    response.writeHead(status, { 'content-type': 'application/xml' }).end(`<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`);
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      void (async () => {
        const body = Buffer.concat(chunks);
        if (options.signedWith) {
          const verdict = await checkSigV4(request, body, { service: 's3', region: options.region ?? 'us-east-1', credentials: options.signedWith });
          if ('refusal' in verdict) return refuse(response, 403, 'SignatureDoesNotMatch', verdict.refusal.message);
        }
        const [, bucket = '', ...segments] = (request.url ?? '/').split('?')[0]!.split('/');
        const key = segments.map((segment) => decodeURIComponent(segment)).join('/');
        const operation = request.method === 'PUT' ? 'PutObject' : 'GetObject';
        const contentType = request.headers['content-type'];
        calls.push({ operation, bucket, key, ...(operation === 'PutObject' && contentType ? { contentType } : {}) });
        const refusal = scripted.shift();
        if (refusal) return refuse(response, refusal.status, refusal.code, 'refused by the test');
        if (operation === 'PutObject') {
          objects.set(`${bucket}/${key}`, body);
          return response.writeHead(200, { etag: '"etag"' }).end();
        }
        const object = objects.get(`${bucket}/${key}`);
        if (!object) return refuse(response, 404, 'NoSuchKey', 'The specified key does not exist.');
        response.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(object.length) }).end(object);
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    objects,
    refuseNext(code, status, count = 1) {
      for (let index = 0; index < count; index += 1) scripted.push({ code, status });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
