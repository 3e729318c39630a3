import { SignatureV4 } from '@smithy/signature-v4';
import type { AwsCredentials } from '../core/ports.ts';
import type { OutgoingCall } from './provider-auth.ts';
import { Sha256 } from './sha256.ts';

export interface AwsSigning {
  /** The service's signing name, e.g. `bedrock`. */
  service: string;
  region: string;
  /** The credentials, or where to get them (asked on every signature; a caching provider makes that cheap). */
  credentials: AwsCredentials | (() => Promise<AwsCredentials>);
  /** False for S3, whose canonical path is the path as sent (every other service escapes it once more). */
  uriEscapePath?: boolean;
}

/** Signs calls for one service and region; the signer keeps its derived signing key between calls. */
export type AwsCallSigner = (call: OutgoingCall) => Promise<Record<string, string>>;

/**
 * The call's headers with an AWS Signature V4 (`authorization`, `x-amz-date`, `x-amz-content-sha256`, and
 * `x-amz-security-token` for temporary credentials), made by the AWS SDK's own signer over exactly the
 * method, URL, headers and body that are sent. `host` is signed and sent as the URL names it.
 */
export function createAwsSigner(signing: AwsSigning): AwsCallSigner {
  const signer = new SignatureV4({
    service: signing.service,
    region: signing.region,
    credentials: signing.credentials,
    sha256: Sha256,
    ...(signing.uriEscapePath === false ? { uriEscapePath: false } : {}),
  });
  return async (call) => {
    const url = new URL(call.url);
    const signed = await signer.sign({
      method: call.method,
      protocol: url.protocol,
      hostname: url.hostname,
      ...(url.port ? { port: Number(url.port) } : {}),
      // The path as it goes on the wire (a model id's `:` already `%3A`); the signer escapes it again, as AWS expects.
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: { ...call.headers, host: url.host },
      body: call.body,
    });
    return signed.headers;
  };
}
