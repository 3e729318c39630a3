import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpenAiRouteGroup } from '../../shared/endpoints/openai-route-group.ts';
import { toGatewayRequest, toStreamingResult } from '../../shared/lambda/function-url.ts';
import { streamingHandler } from '../../shared/lambda/lambda-handlers.ts';
import { installLambdaRuntimeEmulation, LocalResponseStream } from '../../tools/local-host/lambda-runtime-emulation.ts';
import { buildFunctionUrlEvent } from '../../tools/local-host/function-url-event.ts';
import { createFakeGateway, FAKE_KEY, fakeProvider } from '../support/fake-gateway-services.ts';
import { readFixture } from '../support/fixtures.ts';

/**
 * Under the Lambda streaming emulation: the client's answer ends before the usage record is handed over,
 * and the invocation ends only after it was, however slow the hand-over, and even when it fails.
 */
installLambdaRuntimeEmulation();
const events: string[] = [];
let sendBehaviour: 'slow' | 'fail' = 'slow';
const unsent: string[] = [];
let server: Server;
let port = 0;

function gatewayHandler() {
  const fake = createFakeGateway({
    providers: [fakeProvider('openai', ['openai-chat'])],
    models: [{ slug: 'openai/gpt-4o-mini' }],
    fetch: async (_url, init) =>
      JSON.parse(String(init.body)).stream
        ? new Response(readFixture('openai-chat/chat-stream-text-include-usage.sse'), { headers: { 'content-type': 'text/event-stream' } })
        : new Response(readFixture('openai-chat/chat-nonstream-text-usage-details.json'), { headers: { 'content-type': 'application/json' } }),
  });
  fake.services.settings.handsOverUsageAfterAnswer = true;
  fake.services.usageSink = {
    async send(record) {
      events.push('send started');
      await new Promise((resolve) => setTimeout(resolve, 100));
      if (sendBehaviour === 'fail') throw new Error('the queue is down');
      events.push(`send done ${record.status}`);
    },
  };
  fake.services.reportUnsentUsage = (record) => void unsent.push(record.recordId);
  const routeGroup = createOpenAiRouteGroup(fake.services);
  return streamingHandler(async (event: APIGatewayProxyEventV2) => toStreamingResult(await routeGroup(toGatewayRequest(event)))) as unknown as (
    event: APIGatewayProxyEventV2,
    stream: LocalResponseStream,
    context: Context,
  ) => Promise<void>;
}

beforeAll(async () => {
  const handler = gatewayHandler();
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const stream = new LocalResponseStream(response);
      stream.once('finish', () => events.push('answer ended'));
      void handler(buildFunctionUrlEvent(request, Buffer.concat(chunks), Date.now()), stream, {} as Context).then(() => events.push('invocation ended'));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

function ask(stream: boolean): Promise<string> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest({ host: '127.0.0.1', port, method: 'POST', path: '/v1/chat/completions', headers: { authorization: `Bearer ${FAKE_KEY}`, 'content-type': 'application/json' } }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => resolve(body));
    });
    outgoing.on('error', reject);
    outgoing.end(JSON.stringify({ model: 'openai/gpt-4o-mini', stream, messages: [{ role: 'user', content: 'hi' }] }));
  });
}

async function invocationEnded(): Promise<void> {
  while (!events.includes('invocation ended')) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe('answer before metering', () => {
  it.each([false, true])('ends the answer first, then hands the record over, then ends the invocation (stream: %s)', async (stream) => {
    events.length = 0;
    sendBehaviour = 'slow';
    const body = await ask(stream);
    expect(body.length).toBeGreaterThan(0);
    await invocationEnded();
    expect(events).toEqual(['answer ended', 'send started', 'send done completed', 'invocation ended']);
  });

  it('loses no record when the hand-over fails: it is reported (logged whole) before the invocation ends', async () => {
    events.length = 0;
    unsent.length = 0;
    sendBehaviour = 'fail';
    await ask(false);
    await invocationEnded();
    expect(events).toEqual(['answer ended', 'send started', 'invocation ended']);
    expect(unsent).toHaveLength(1);
  });
});
