import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InvokeCommand, LambdaClient, type InvokeCommandOutput } from '@aws-sdk/client-lambda';
import { mockClient, type AwsClientStub } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chooseAdminInvoker } from '../../../tools/cli/admin-invoker.ts';
import { startLocalBackend, type LocalBackend } from '../../../tools/local-host/backend.ts';
import { LOCAL_ADMIN_TOKEN_HEADER, writeHostFile } from '../../../tools/local-host/host-file.ts';
import { LOCAL_TABLES } from '../../../tools/local-host/local-environment.ts';

// The SDK wraps payload bytes in a blob adapter; the invoker reads them as plain bytes.
const encode = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)) as InvokeCommandOutput['Payload'];

describe('chooseAdminInvoker with GATEWAY_ADMIN_FUNCTION_NAME', () => {
  // Every LambdaClient while it lasts: the local host's Invoke API below is reached for real.
  let lambda: AwsClientStub<LambdaClient>;
  beforeEach(() => {
    lambda = mockClient(LambdaClient);
  });
  afterEach(() => {
    lambda.restore();
  });

  it('invokes the deployed admin function with the command as its payload', async () => {
    lambda.on(InvokeCommand).resolves({ StatusCode: 200, Payload: encode({ ok: true, result: { id: 'acme' } }) });
    const invoker = await chooseAdminInvoker({ GATEWAY_ADMIN_FUNCTION_NAME: 'gateway-admin-fn' });

    const answer = await invoker.invoke({ command: 'project.get', projectId: 'acme' });
    await invoker.close();

    expect(invoker.target).toBe('aws');
    expect(answer).toEqual({ ok: true, result: { id: 'acme' } });
    const sent = lambda.commandCalls(InvokeCommand)[0]?.args[0].input;
    expect(sent?.FunctionName).toBe('gateway-admin-fn');
    expect(JSON.parse(new TextDecoder().decode(sent?.Payload as Uint8Array))).toEqual({ command: 'project.get', projectId: 'acme' });
  });

  it('reports a function error instead of printing it as a result', async () => {
    lambda.on(InvokeCommand).resolves({ StatusCode: 200, FunctionError: 'Unhandled', Payload: encode({ errorMessage: 'boom' }) });
    const invoker = await chooseAdminInvoker({ GATEWAY_ADMIN_FUNCTION_NAME: 'gateway-admin-fn' });

    await expect(invoker.invoke({ command: 'ratecard.list' })).rejects.toThrow(/The admin function failed: .*boom/);
    await invoker.close();
  });
});

describe('chooseAdminInvoker on a local data directory another process holds', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  /** A data directory whose store is open in a backend process, as a gateway holds it while it starts or stops. */
  async function heldDataDirectory(): Promise<{ dataDir: string; holder: LocalBackend }> {
    const dataDir = await mkdtemp(join(tmpdir(), 'gateway-held-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const holder = await startLocalBackend(join(dataDir, 'dynamodb'), LOCAL_TABLES);
    cleanups.push(() => holder.shutdown());
    return { dataDir, holder };
  }

  /** A report callback and a promise of its first line: the moment the invoker has found the store held. */
  function firstReport() {
    let report!: (line: string) => void;
    const reported = new Promise<string>((resolve) => (report = resolve));
    return { report, reported };
  }

  it('waits while the store is held, says so, and runs the command on the store once it is let go', async () => {
    const { dataDir, holder } = await heldDataDirectory();
    const { report, reported } = firstReport();

    const choosing = chooseAdminInvoker({ GATEWAY_DATA_DIR: dataDir }, { report });
    expect(await reported).toBe(
      `(another process holds the store in ${dataDir}, a gateway starting or stopping or another admin command: waiting up to 30 s for it)`,
    );
    await holder.shutdown();
    const invoker = await choosing;
    cleanups.push(() => invoker.close());

    expect(invoker.target).toBe('in-process');
    expect(await invoker.invoke({ command: 'project.list' })).toEqual({ ok: true, result: { projects: [] } });
  });

  it('goes through the gateway that becomes ready while it waits, without opening the store', async () => {
    const { dataDir } = await heldDataDirectory();
    const { report, reported } = firstReport();
    const adminToken = 'token-of-the-gateway';
    // The gateway's Invoke API, as far as the CLI sees it: /health, and the admin function behind the token.
    const gateway: Server = createServer((request, response) => {
      if (request.url === '/health') return void response.end('ok');
      if (request.headers[LOCAL_ADMIN_TOKEN_HEADER] !== adminToken) return void response.writeHead(403).end();
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true, result: { projects: [{ id: 'from-the-gateway' }] } }));
    });
    await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => gateway.close(() => resolve())));

    const choosing = chooseAdminInvoker({ GATEWAY_DATA_DIR: dataDir }, { report });
    await reported;
    await writeHostFile(dataDir, { url: `http://127.0.0.1:${(gateway.address() as AddressInfo).port}`, pid: process.pid, adminToken });
    const invoker = await choosing;
    cleanups.push(() => invoker.close());

    expect(invoker.target).toBe('local host');
    expect(await invoker.invoke({ command: 'project.list' })).toEqual({ ok: true, result: { projects: [{ id: 'from-the-gateway' }] } });
  });

  it('ends with an error saying another process holds the store once the wait is over, not a LevelDB crash', async () => {
    const { dataDir } = await heldDataDirectory();

    await expect(chooseAdminInvoker({ GATEWAY_DATA_DIR: dataDir }, { storeWaitMs: 0 })).rejects.toThrow(
      `Another process still holds the store in ${dataDir} after 0 s, and no gateway answers on it. If npm start runs on it, try again once it says it is listening; otherwise stop that process.`,
    );
  });
});
