import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectBefore, expectStreamedWithPrelude } from './runtime-stream-cases.ts';
import { functionIdentity, startFunction, type RunningFunction } from '../support/lambda-runtime-client.ts';
import {
  assetDirectory,
  awsEndpoints,
  deployedEnvironment,
  DOCS_TOKEN,
  docsServer,
  invokeStreaming,
  queueUrlOnTheFake,
  sqs,
  timeline,
  useRuntimeClientGateway,
  workDirectory,
} from './runtime-client-gateway.ts';

useRuntimeClientGateway();

describe('route groups bundled as deployed, under the AWS Lambda runtime interface client', () => {
  describe('the mcp route group', () => {
    let running: RunningFunction;

    beforeAll(async () => {
      const taskRoot = join(workDirectory, 'mcp');
      cpSync(assetDirectory('RouteGroupmcp'), taskRoot, { recursive: true });
      running = await startFunction(taskRoot, {
        ...deployedEnvironment('RouteGroupmcp'),
        ...awsEndpoints(),
        GATEWAY_USAGE_QUEUE_URL: queueUrlOnTheFake('mcp'),
        GATEWAY_ALLOW_PRIVATE_UPSTREAMS: 'true',
        ...functionIdentity('gateway-mcp', 512),
      });
    });
    afterAll(async () => {
      await running?.stop();
    });

    it('bridges a tool call through the runtime with the server\'s header secret, then meters it before the invocation is over', async () => {
      timeline.length = 0;
      const sent = sqs.messages.length;
      const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'docs__search', arguments: { query: 'iam' } } };

      const response = await invokeStreaming(running, { path: '/mcp/v1', body: call, headers: { accept: 'application/json, text/event-stream' } });

      expectStreamedWithPrelude(response, 200);
      expect(response.body.toString('utf8')).toContain('3 pages match \\"iam\\"');
      expect(docsServer.received.at(-1)?.['x-docs-token']).toBe(DOCS_TOKEN);
      expectBefore(timeline, 'runtime: /response complete', 'sqs: usage record completed', running.runtime.output());
      expectBefore(timeline, 'sqs: usage record completed', 'runtime: invocation over (asks for the next)', running.runtime.output());
      const records = sqs.messages.slice(sent).map((message) => JSON.parse(message.body) as Record<string, unknown>);
      expect(records).toEqual([expect.objectContaining({ projectId: 'runtime', endpoint: 'mcp.tools_call', model: 'mcp/docs/search', status: 'completed' })]);
    }, 30_000);
  });
});
