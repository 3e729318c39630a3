import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { Hash } from '@smithy/hash-node';
import { SignatureV4 } from '@smithy/signature-v4';

/** How a request carrying an AWS Signature V4 was authorized. */
export interface SigV4Authorization {
  kind: 'sigv4';
  accessKeyId: string;
  region: string;
  service: string;
  signedHeaders: string[];
  sessionToken: string | undefined;
}

export type SigV4Verdict<Authorization = SigV4Authorization> = { authorization: Authorization } | { refusal: { type: string; message: string } };

export interface SigV4Expectation {
  /** The signing name the service answers to (`bedrock`, `sqs`). */
  service: string;
  /** The region the service serves: a signature scoped to another is refused, as AWS does. */
  region: string;
  /** Secret keys by access key id: what a signature is checked against. */
  credentials: Record<string, { secretAccessKey: string; sessionToken?: string }>;
}

const SIGV4 = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/;

/**
 * Checks a request's AWS Signature V4 as an AWS service does: scoped to the service and its region, made
 * with one of the known credentials over exactly the method, path, signed headers and body received (the
 * body's SHA-256 included). The request is signed again with the AWS SDK's signer and compared.
 */
export async function checkSigV4(request: IncomingMessage, body: string | Buffer, expected: SigV4Expectation): Promise<SigV4Verdict> {
  const header = request.headers.authorization ?? '';
  const parts = SIGV4.exec(header);
  if (!parts) return refuse('MissingAuthenticationTokenException', 'Missing Authentication Token');
  const [, accessKeyId = '', , region = '', service = '', signedHeaderList = ''] = parts;
  if (service !== expected.service) return refuse('InvalidSignatureException', `Credential should be scoped to correct service: '${expected.service}'.`);
  if (region !== expected.region) return refuse('InvalidSignatureException', `Credential should be scoped to a valid region, not '${region}'.`);
  const known = expected.credentials[accessKeyId];
  if (!known) return refuse('UnrecognizedClientException', 'The security token included in the request is invalid.');
  const sessionToken = request.headers['x-amz-security-token'] as string | undefined;
  if (sessionToken !== known.sessionToken) return refuse('UnrecognizedClientException', 'The security token included in the request is invalid.');
  const signedHeaders = signedHeaderList.split(';');
  for (const required of ['host', 'x-amz-date']) {
    if (!signedHeaders.includes(required)) return refuse('InvalidSignatureException', `The request must sign ${required}.`);
  }
  const claimedHash = request.headers['x-amz-content-sha256'];
  if (claimedHash !== undefined && claimedHash !== createHash('sha256').update(body).digest('hex')) {
    return refuse('InvalidSignatureException', 'The body does not match x-amz-content-sha256.');
  }
  const signature = await signAgain(request, body, signedHeaders, { accessKeyId, region, service, secretAccessKey: known.secretAccessKey, sessionToken });
  if (signature !== header) return refuse('InvalidSignatureException', 'The request signature we calculated does not match the signature you provided.');
  return { authorization: { kind: 'sigv4', accessKeyId, region, service, signedHeaders, sessionToken } };
}

/** The Authorization header the SDK's signer makes for the request as received, at the time it claims. */
async function signAgain(
  request: IncomingMessage,
  body: string | Buffer,
  signedHeaders: string[],
  key: { accessKeyId: string; secretAccessKey: string; sessionToken: string | undefined; region: string; service: string },
): Promise<string> {
  const host = request.headers.host ?? '';
  const [hostname = '', port] = host.split(':');
  // The signer adds these itself (the body's hash from the body received, the session token from the key).
  const own = new Set(['x-amz-content-sha256', 'x-amz-security-token', 'x-amz-date']);
  const headers = Object.fromEntries(signedHeaders.filter((name) => !own.has(name)).map((name) => [name, String(request.headers[name] ?? '')]));
  const signer = new SignatureV4({
    service: key.service,
    region: key.region,
    credentials: { accessKeyId: key.accessKeyId, secretAccessKey: key.secretAccessKey, ...(key.sessionToken ? { sessionToken: key.sessionToken } : {}) },
    sha256: Hash.bind(null, 'sha256'),
    applyChecksum: signedHeaders.includes('x-amz-content-sha256'),
    // S3 signs the path as sent; every other service escapes it once more.
    uriEscapePath: key.service !== 's3',
  });
  const amzDate = String(request.headers['x-amz-date'] ?? '');
  const signingDate = new Date(`${amzDate.slice(0, 4)}-${amzDate.slice(4, 6)}-${amzDate.slice(6, 8)}T${amzDate.slice(9, 11)}:${amzDate.slice(11, 13)}:${amzDate.slice(13, 15)}Z`);
  const [path = '/', query = ''] = (request.url ?? '/').split('?');
  const signed = await signer.sign(
    {
      method: request.method ?? 'POST',
      protocol: 'http:',
      hostname,
      ...(port ? { port: Number(port) } : {}),
      path,
      query: Object.fromEntries(new URLSearchParams(query)),
      headers,
      body,
    },
    { signingDate },
  );
  return signed.headers.authorization ?? '';
}

function refuse(type: string, message: string): SigV4Verdict {
  return { refusal: { type, message } };
}
