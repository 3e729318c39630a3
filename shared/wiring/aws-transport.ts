import type { UpstreamFetch } from '../core/ports.ts';
import { createNodeHttpFetch } from '../transport/node-http-fetch.ts';

let shared: UpstreamFetch | undefined;

/**
 * The keep-alive transport of the function's own AWS calls (DynamoDB, Secrets Manager, S3, SQS), one per
 * execution environment, so that calls to one endpoint reuse its connections whichever adapter makes them
 * (the origin secret and a provider key, both read from Secrets Manager at a cold start, share one TLS
 * handshake). Private addresses are allowed: the endpoints are the deployment's (a VPC endpoint resolves
 * to private addresses, the local host's store listens on loopback), never a user's.
 */
export function awsTransport(): UpstreamFetch {
  shared ??= createNodeHttpFetch({ allowPrivateAddresses: true });
  return shared;
}
