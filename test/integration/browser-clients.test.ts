import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { build } from 'esbuild';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeInChromium, launchChromium, type HeadlessChromium } from '../support/chromium.ts';
import { startTestGateway, type TestGateway } from '../support/test-gateway.ts';

/**
 * A web app on another origin calling the gateway from the browser with the official SDKs (OpenAI's and
 * Anthropic's, bundled for the browser as an app would), through the browser's own CORS checks: preflight,
 * reading the answer, its stream, its headers and its errors.
 */
const SDK_ENTRY = `
import OpenAI from 'openai';
import Anthropic from '@anthropic-ai/sdk';
globalThis.OpenAI = OpenAI;
globalThis.Anthropic = Anthropic;
`;

/** The two SDKs as one browser script (what a web app's bundler makes of them). */
async function bundleSdks(): Promise<string> {
  const result = await build({
    stdin: { contents: SDK_ENTRY, resolveDir: process.cwd(), loader: 'js' },
    bundle: true,
    platform: 'browser',
    format: 'iife',
    write: false,
    logLevel: 'silent',
  });
  return result.outputFiles[0]?.text ?? '';
}

/** The web app's own origin: a page and its script, on a port of its own (so another origin than the gateway's). */
async function serveApp(script: string): Promise<{ server: Server; url: string }> {
  const server = createServer((request, response) => {
    if (request.url === '/sdk.js') {
      response.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>app</title><script src="/sdk.js"></script>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://localhost:${(server.address() as AddressInfo).port}/` };
}

declare const OpenAI: typeof import('openai').default;
declare const Anthropic: typeof import('@anthropic-ai/sdk').default;

await describeInChromium('browser clients on another origin', () => {
  let gateway: TestGateway;
  let app: { server: Server; url: string };
  let chromium: HeadlessChromium;
  let page: Page;
  let key = '';

  beforeAll(async () => {
    gateway = await startTestGateway();
    await gateway.admin({ command: 'project.create', projectId: 'webapp' });
    await gateway.admin({ command: 'provider.set', projectId: 'webapp', provider: 'mock' });
    await gateway.admin({ command: 'model.allow', projectId: 'webapp', slug: 'mock/echo' });
    ({ key } = await gateway.admin<{ key: string }>({ command: 'key.create', projectId: 'webapp' }));
    app = await serveApp(await bundleSdks());
    chromium = await launchChromium();
    page = await chromium.context.newPage();
    await page.goto(app.url);
    await page.waitForFunction(() => typeof OpenAI === 'function' && typeof Anthropic === 'function');
  }, 120_000);

  afterAll(async () => {
    await chromium?.close();
    await new Promise((resolve) => app?.server.close(resolve));
    await gateway?.close();
  });

  it('serves the OpenAI SDK a whole answer and a stream, and lets the page read the request id', async () => {
    const gatewayUrl = gateway.url;
    expect(new URL(gatewayUrl).origin).not.toBe(new URL(app.url).origin);
    const seen = await page.evaluate(
      async ({ baseURL, apiKey }) => {
        const client = new OpenAI({ apiKey, baseURL, dangerouslyAllowBrowser: true, maxRetries: 0 });
        const { data: whole, response } = await client.chat.completions.create({ model: 'mock/echo', messages: [{ role: 'user', content: 'hello from a page' }] }).withResponse();
        let streamed = '';
        const stream = await client.chat.completions.create({ model: 'mock/echo', stream: true, messages: [{ role: 'user', content: 'stream please' }] });
        for await (const chunk of stream) streamed += chunk.choices[0]?.delta.content ?? '';
        return { whole: whole.choices[0]?.message.content, streamed, requestId: response.headers.get('x-request-id') };
      },
      { baseURL: `${gatewayUrl}/v1`, apiKey: key },
    );
    expect(seen.whole).toContain('hello from a page');
    expect(seen.streamed).toContain('stream please');
    expect(seen.requestId).toMatch(/^gen-/);
  });

  it('serves the Anthropic SDK (its headers asked for in the preflight) a streamed message', async () => {
    const text = await page.evaluate(
      async ({ baseURL, apiKey }) => {
        const client = new Anthropic({ apiKey, baseURL, dangerouslyAllowBrowser: true, maxRetries: 0 });
        const stream = client.messages.stream({ model: 'mock/echo', max_tokens: 100, messages: [{ role: 'user', content: 'a message from a page' }] });
        return (await stream.finalMessage()).content.map((block) => (block.type === 'text' ? block.text : '')).join('');
      },
      { baseURL: gateway.url, apiKey: key },
    );
    expect(text).toContain('a message from a page');
  });

  it("gives the page the gateway's error, not a network failure, for a key it refuses", async () => {
    const failure = await page.evaluate(async (baseURL) => {
      const client = new OpenAI({ apiKey: 'gw.not-a-key', baseURL, dangerouslyAllowBrowser: true, maxRetries: 0 });
      try {
        await client.chat.completions.create({ model: 'mock/echo', messages: [{ role: 'user', content: 'hi' }] });
        return { status: 0, message: 'answered' };
      } catch (error) {
        const { status, message } = error as { status?: number; message: string };
        return { status: status ?? 0, message };
      }
    }, `${gateway.url}/v1`);
    expect(failure.status).toBe(401);
    expect(failure.message).toMatch(/key/i);
  });
});
