import * as crypto from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadRuntimeConfig } from '../../shared/config/runtime-config.ts';
import { createDefaultAwsCredentials } from '../../shared/adapters/aws/default-aws-credentials.ts';
import { createAdapters } from '../../shared/wiring/create-adapters.ts';
import { createUsageArchive } from '../../shared/wiring/create-usage-archive.ts';

// Only the project's own hasher (shared/transport/sha256.ts) goes through this mock: the SDK's hasher, in
// node_modules, calls Node's crypto directly. So a signed call that records no HMAC here was signed by the
// SDK's hasher, whose Buffer keys cost Node 24 two exceptions per HMAC.
vi.mock('node:crypto', async (importOriginal) => {
  const original = await importOriginal<typeof import('node:crypto')>();
  return { ...original, createHmac: vi.fn(original.createHmac) };
});

let server: Server;
let endpoint: string;

beforeAll(async () => {
  // Answers every AWS call with an empty success in the protocol the client speaks.
  server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const json = String(request.headers['content-type'] ?? '').includes('json');
      response.writeHead(200, { 'content-type': json ? 'application/x-amz-json-1.1' : 'application/xml', etag: '"e"' });
      response.end(json ? JSON.stringify({ SecretString: JSON.stringify({ apiKey: 'sk-test' }) }) : '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  vi.mocked(crypto.createHmac).mockClear();
  vi.stubEnv('AWS_ACCESS_KEY_ID', 'AKIAHASHERTEST000001');
  vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'hasher-test-secret');
  vi.stubEnv('AWS_ENDPOINT_URL', endpoint);
  return () => vi.unstubAllEnvs();
});

function signedWithKeyObjects(): void {
  const keys = vi.mocked(crypto.createHmac).mock.calls.map((call) => call[1]);
  expect(keys.length).toBeGreaterThanOrEqual(2);
  for (const key of keys) expect(key).toBeInstanceOf(crypto.KeyObject);
}

describe("the AWS calls the functions make sign with the project's hasher (KeyObject HMAC keys)", () => {
  const config = () => loadRuntimeConfig({ AWS_REGION: 'us-east-1', GATEWAY_DYNAMODB_ENDPOINT: endpoint, AWS_ENDPOINT_URL: endpoint, GATEWAY_USAGE_BUCKET: 'usage' });
  const adapters = () => createAdapters(config(), createDefaultAwsCredentials());

  it('the DynamoDB calls every adapter makes', async () => {
    await adapters().documents.get({ TableName: 'gateway-keys', Key: { keyHash: 'x' } });
    signedWithKeyObjects();
  });

  it('the Secrets Manager call that reads a provider key', async () => {
    expect(await adapters().secrets.getApiKey('project', 'openai')).toBe('sk-test');
    signedWithKeyObjects();
  });

  it("the S3 call that puts the writer's usage files", async () => {
    await createUsageArchive(config()).write('usage/test.parquet', new Uint8Array([1, 2, 3]));
    signedWithKeyObjects();
  });
});
