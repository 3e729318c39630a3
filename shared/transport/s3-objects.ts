import type { AwsCredentials, UpstreamFetch } from '../core/ports.ts';
import { awsErrorName } from './aws-error-name.ts';
import { refusalOf, regionalEndpoint, SignedAwsCalls, type AwsCallTiming } from './aws-json-service.ts';

export interface S3ObjectsOptions {
  region: string;
  /** `AWS_ENDPOINT_URL_S3` or `AWS_ENDPOINT_URL` (a VPC endpoint, a local stand-in): its buckets by path. */
  endpoint?: string | undefined;
  credentials: () => Promise<AwsCredentials>;
  fetch: UpstreamFetch;
  timing?: AwsCallTiming;
}

/**
 * A try's limit, its body's transfer included: a compacted day of usage can be tens of MB, which S3 takes in
 * seconds from Lambda; a try that stalls longer is abandoned and tried again.
 */
const OBJECT_ATTEMPT_TIMEOUT_MS = 60_000;

/** A key's path segments escaped as S3 expects them (RFC 3986's unreserved characters kept, `/` between segments). */
function escapedKey(key: string): string {
  return key
    .split('/')
    .map((segment) => encodeURIComponent(segment).replace(/[!'()*]/g, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`))
    .join('/');
}

/**
 * Whole objects in S3 (`PutObject`, `GetObject`) as signed REST calls, without the SDK's S3 client: the
 * functions whose cold start makes one such call (the writer's usage file, the console's site file) then do
 * not compile the client and the SDK's core for it (docs/decisions/aws-json-calls.md). Virtual-hosted
 * addresses (`<bucket>.s3.<region>.amazonaws.com`) as the SDK makes them, by path for a bucket name with
 * dots and behind an endpoint override; the body's SHA-256 signed; retries as the SDK's standard mode.
 */
export class S3Objects extends SignedAwsCalls {
  private readonly options: S3ObjectsOptions;

  constructor(options: S3ObjectsOptions) {
    const timing = { attemptTimeoutMs: OBJECT_ATTEMPT_TIMEOUT_MS, ...options.timing };
    super({ service: 's3', region: options.region, credentials: options.credentials, uriEscapePath: false }, options.fetch, timing);
    this.options = options;
  }

  async put(bucket: string, key: string, body: Uint8Array, contentType: string): Promise<void> {
    await this.retried(() => this.send('PutObject', 'PUT', bucket, key, body, { 'content-type': contentType }));
  }

  async get(bucket: string, key: string): Promise<Uint8Array> {
    return this.retried(async () => new Uint8Array(await (await this.send('GetObject', 'GET', bucket, key, '', {})).arrayBuffer()));
  }

  /** The object's address: virtual-hosted, or by path where the bucket cannot be a host name or an endpoint is given. */
  private url(bucket: string, key: string): string {
    const path = escapedKey(key);
    const { endpoint, region } = this.options;
    if (endpoint !== undefined) return `${endpoint.replace(/\/+$/, '')}/${bucket}/${path}`;
    const regional = regionalEndpoint('s3', region);
    return bucket.includes('.') ? `${regional}/${bucket}/${path}` : regional.replace('https://', `https://${bucket}.`) + `/${path}`;
  }

  private async send(operation: string, method: string, bucket: string, key: string, body: string | Uint8Array, headers: Record<string, string>): Promise<Response> {
    const response = await this.sendSigned({ url: this.url(bucket, key), method, headers, body });
    if (response.ok) return response;
    // S3 answers a refusal in XML: <Error><Code>NoSuchKey</Code><Message>…</Message></Error>.
    const text = await response.text();
    const type = awsErrorName(/<Code>([^<]+)<\/Code>/.exec(text)?.[1]) ?? `Http${response.status}`;
    const message = /<Message>([^<]*)<\/Message>/.exec(text)?.[1] ?? text.slice(0, 200);
    throw refusalOf(response.status, type, `s3 refused ${operation} of s3://${bucket}/${key} (${response.status} ${type}): ${message}`);
  }
}

