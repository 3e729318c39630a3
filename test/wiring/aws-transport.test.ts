import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRuntimeConfig } from '../../shared/config/runtime-config.ts';
import { createSecretsManager } from '../../shared/wiring/secrets-manager.ts';

let server: Server;
let endpoint: string;
let connections = 0;

beforeAll(async () => {
  // Answers every call with a secret, and counts the connections it is called on.
  server = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(200, { 'content-type': 'application/x-amz-json-1.1' }).end(JSON.stringify({ SecretString: 'value' })));
  });
  server.on('connection', () => void (connections += 1));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe("the function's AWS calls", () => {
  it('share one keep-alive transport: the origin secret and a provider key, read by two clients of Secrets Manager, come over one connection', async () => {
    const config = loadRuntimeConfig({ AWS_REGION: 'us-east-1', AWS_ENDPOINT_URL_SECRETS_MANAGER: endpoint });
    const credentials = { credentials: async () => ({ accessKeyId: 'AKIDTRANSPORT0000001', secretAccessKey: 'transport-secret' }) };
    const originSecret = createSecretsManager(config, credentials);
    const providerKeys = createSecretsManager(config, credentials);

    await originSecret.call('GetSecretValue', { SecretId: 'origin' });
    await providerKeys.call('GetSecretValue', { SecretId: 'model-gateway/provider/acme/openai' });

    expect(connections).toBe(1);
  });
});
