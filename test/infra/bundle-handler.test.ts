import { spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { bundleHandler, HANDLER_FILE } from '../../infra/bundling/bundle-handler.ts';
import { temporaryDirectory } from '../support/temporary-directories.ts';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), 'bundling-fixture');
const fixture = join(fixtures, 'handler.ts');

/** The bundle's own files a module imports statically (`import … from"./chunks/x.mjs"`), not its `import()`s. */
function staticImports(file: string): string[] {
  return [...readFileSync(file, 'utf8').matchAll(/(?:from|import)\s*"(\.\.?\/[^"]+\.mjs)"/g)].map((match) => join(dirname(file), match[1] as string));
}

describe('bundling a handler', () => {
  it('puts the whole cold start in one chunk beside the handler, what is loaded on first use in chunks of its own, default exports kept', async () => {
    const outdir = temporaryDirectory('gateway-bundle-handler-');
    const outputs = await bundleHandler(fixture, outdir);
    const index = join(outdir, HANDLER_FILE);

    const coldStart = staticImports(index);
    expect(coldStart).toHaveLength(1);
    expect(staticImports(coldStart[0] as string)).toEqual([]);
    // Two lazily loaded chunks besides the handler and its cold-start chunk.
    expect(outputs.filter((output) => output.file.endsWith('.mjs'))).toHaveLength(4);

    const { handler } = (await import(pathToFileURL(index).href)) as { handler: () => Promise<string[]> };
    expect(await handler()).toEqual(['hello cold!', 'HELLO NAMED', 'default!']);
  });

  it("reaches Node's built-ins without their ES module facades, so an import() of node:http does not load undici", async () => {
    const outdir = temporaryDirectory('gateway-bundle-builtins-');
    await bundleHandler(join(fixtures, 'http-handler.ts'), outdir);
    // A fresh process: the test runner has long loaded undici itself.
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', `const { handler } = await import(${JSON.stringify(pathToFileURL(join(outdir, HANDLER_FILE)).href)}); console.log(JSON.stringify(await handler()));`], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual({ agent: 'function', request: 'function', undici: false, read: true });
  });

  it("runs an SDK client whose protocol the SDK imports through its barrel files (S3's XML), both ways", async () => {
    const outdir = temporaryDirectory('gateway-bundle-s3-');
    await bundleHandler(join(fixtures, 's3-handler.ts'), outdir);
    const requests: string[] = [];
    const s3 = createServer((request, response) => {
      requests.push(`${request.method} ${request.url}`);
      request.resume().on('end', () => {
        if (request.method === 'PUT') response.writeHead(200, { ETag: '"etag-1"' }).end();
        else response.writeHead(200, { 'Content-Type': 'application/xml' }).end(
          '<?xml version="1.0" encoding="UTF-8"?><ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>usage</Name><Prefix>a</Prefix><KeyCount>1</KeyCount><MaxKeys>1000</MaxKeys><IsTruncated>false</IsTruncated><Contents><Key>a.json</Key><Size>2</Size></Contents></ListBucketResult>',
        );
      });
    });
    await new Promise<void>((resolve) => s3.listen(0, '127.0.0.1', resolve));
    try {
      const { handler } = (await import(pathToFileURL(join(outdir, HANDLER_FILE)).href)) as { handler: (endpoint: string) => Promise<unknown> };
      const endpoint = `http://127.0.0.1:${(s3.address() as AddressInfo).port}`;
      expect(await handler(endpoint)).toEqual({ etag: '"etag-1"', keys: ['a.json'], truncated: false });
      expect(requests).toEqual(['PUT /usage/a.json?x-id=PutObject', 'GET /usage/?list-type=2&prefix=a']);
    } finally {
      s3.close();
    }
  });

  it("resolves AWS endpoints by region and partition in the bundle, the SDK's registered partition functions kept", async () => {
    const outdir = temporaryDirectory('gateway-bundle-endpoints-');
    await bundleHandler(join(fixtures, 'endpoints-handler.ts'), outdir);
    const { handler } = (await import(pathToFileURL(join(outdir, HANDLER_FILE)).href)) as { handler: () => Promise<string[]> };
    expect(await handler()).toEqual(['https://dynamodb.eu-west-1.amazonaws.com/', 'https://secretsmanager.cn-north-1.amazonaws.com.cn/', 'https://usage.s3.us-gov-west-1.amazonaws.com/']);
  });

  it("loads node:zlib at the first call of its crc32, not at import, and the checksum is Node's", async () => {
    const outdir = temporaryDirectory('gateway-bundle-zlib-');
    await bundleHandler(join(fixtures, 'checksum-handler.ts'), outdir);
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', `const { handler } = await import(${JSON.stringify(pathToFileURL(join(outdir, HANDLER_FILE)).href)}); console.log(JSON.stringify(await handler()));`], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual({ loadedAtImport: false, checksum: crc32('hello'), loadedAfterCall: true });
  });
});
