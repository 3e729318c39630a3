import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureRuntimeClientBuilt, functionIdentity, startFunction, type RunningFunction } from './lambda-runtime-client.ts';

/**
 * The Runtime API emulator, checked against the runtime interface client itself with tiny handlers: the
 * instrument test/infra/route-groups-under-lambda-runtime-{streams,mcp}.test.ts reads the route groups with.
 */
let taskRoot: string;
let running: RunningFunction;

beforeAll(async () => {
  await ensureRuntimeClientBuilt();
  taskRoot = mkdtempSync(join(tmpdir(), 'runtime-api-emulator-'));
  writeFileSync(
    join(taskRoot, 'index.mjs'),
    `export const handler = awslambda.streamifyResponse(async (event, responseStream) => {
  const stream = awslambda.HttpResponseStream.from(responseStream, { statusCode: event.status, headers: { 'content-type': 'text/plain' } });
  stream.write('first bytes');
  await new Promise((resolve) => setTimeout(resolve, 20));
  if (event.fail) throw new TypeError('broke after the first byte');
  stream.end(' and the rest');
});\n`,
  );
  running = await startFunction(taskRoot, { ...functionIdentity('emulator-check', 128), AWS_REGION: 'us-east-1' });
}, 300_000);

afterAll(async () => {
  await running?.stop();
  if (taskRoot) rmSync(taskRoot, { recursive: true, force: true });
});

async function invoke(event: unknown) {
  const result = await Promise.race([running.runtimeApi.invoke(event).result, running.runtime.crashed]);
  if (result.kind !== 'response') throw new Error(`expected a response, got ${JSON.stringify(result)}\n${running.runtime.output()}`);
  return result;
}

describe('the Runtime API emulator under the runtime interface client', () => {
  it('splits a streamed HTTP-integration response into its prelude and body', async () => {
    const response = await invoke({ status: 201 });

    expect(response.requestHeaders).toMatchObject({ 'lambda-runtime-function-response-mode': 'streaming', 'transfer-encoding': 'chunked' });
    expect(response.prelude).toEqual({ statusCode: 201, headers: { 'content-type': 'text/plain' } });
    expect(response.body.toString('utf8')).toBe('first bytes and the rest');
    expect(response.midStreamError).toBeUndefined();
  });

  it('reads a handler failure after the first byte from the runtime\'s error trailers', async () => {
    const response = await invoke({ status: 200, fail: true });

    expect(response.body.toString('utf8')).toBe('first bytes');
    expect(response.midStreamError).toMatchObject({ type: 'TypeError', body: { errorType: 'TypeError', errorMessage: 'broke after the first byte' } });
  });
});
