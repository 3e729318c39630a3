import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeGroups } from '../../shared/http/route-groups.ts';
import { expectBefore, expectStreamedWithPrelude, streamCases } from './runtime-stream-cases.ts';
import { functionIdentity, startFunction, type RunningFunction } from '../support/lambda-runtime-client.ts';
import {
  assetDirectory,
  awsEndpoints,
  deployedEnvironment,
  invokeStreaming,
  queueUrlOnTheFake,
  setUpstreamScenario,
  sqs,
  timeline,
  useRuntimeClientGateway,
  workDirectory,
} from './runtime-client-gateway.ts';

useRuntimeClientGateway();

describe('route groups bundled as deployed, under the AWS Lambda runtime interface client', () => {
  it('covers every route group', () => {
    expect([...streamCases.map((each) => each.group), 'mcp'].sort()).toEqual(routeGroups.map((group) => group.name).sort());
  });

  describe.each(streamCases)('the $group route group', ({ group, path, body, marker, errorFrame }) => {
    let running: RunningFunction;

    beforeAll(async () => {
      const taskRoot = join(workDirectory, group);
      cpSync(assetDirectory(`RouteGroup${group}`), taskRoot, { recursive: true });
      running = await startFunction(taskRoot, {
        ...deployedEnvironment(`RouteGroup${group}`),
        ...awsEndpoints(),
        GATEWAY_USAGE_QUEUE_URL: queueUrlOnTheFake(group),
        // The one setting a deployment does not have: the fake provider listens on loopback.
        GATEWAY_ALLOW_PRIVATE_UPSTREAMS: 'true',
        ...functionIdentity(`gateway-${group}`, 512),
      });
    });
    afterAll(async () => {
      await running?.stop();
    });

    it('streams the answer through the runtime incrementally, behind the HTTP-integration prelude, and sends the usage record after the answer, before the invocation is over', async () => {
      timeline.length = 0;
      setUpstreamScenario('whole');
      const sent = sqs.messages.length;
      const outputBefore = running.runtime.output().length;

      const response = await invokeStreaming(running, { path, body }, marker);

      expectStreamedWithPrelude(response, 200);
      expect(response.prelude?.headers?.['content-type']).toMatch(/^text\/event-stream/);
      expect(response.midStreamError, running.runtime.output()).toBeUndefined();
      const text = response.body.toString('utf8');
      expect(text).toContain(marker);
      expect(text).toMatch(group === 'messages' ? /event: message_stop\ndata: \{"type":"message_stop"\s*\}\n\n$/ : /data: \[DONE\]\n\n$/);
      // Incrementally: the runtime passed the first delta on while the upstream still held back the rest.
      expectBefore(timeline, 'runtime: first delta received on /response', 'upstream: the rest sent', running.runtime.output());
      expect(response.bodyChunks).toBeGreaterThan(1);
      // Answer first, then meter: the record leaves after the client's answer ended, before the invocation is over.
      expectBefore(timeline, 'runtime: /response complete', 'sqs: usage record completed', running.runtime.output());
      expectBefore(timeline, 'sqs: usage record completed', 'runtime: invocation over (asks for the next)', running.runtime.output());
      const records = sqs.messages.slice(sent).map((message) => JSON.parse(message.body) as Record<string, unknown>);
      expect(records).toHaveLength(1);
      expect(records[0]).toMatchObject({ projectId: 'runtime', streamed: true, status: 'completed', model: (body as { model: string }).model });
      expect(sqs.messages.at(-1)?.queueUrl).toBe(queueUrlOnTheFake(group));
      // CloudWatch's embedded metrics, as whole JSON lines of the function's log: the response's and the record's.
      const metricLines = running.runtime
        .output()
        .slice(outputBefore)
        .split('\n')
        .filter((line) => line.includes('"_aws"'))
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(metricLines).toEqual([
        expect.objectContaining({ service: `gateway-${group}`, status: '200', Requests: 1, Responses: 1 }),
        expect.objectContaining({ service: `gateway-${group}`, status: 'completed', UsageRecords: 1, Latency: expect.any(Number) }),
      ]);
    }, 30_000);

    it('ends a stream that breaks after the first byte with the protocol\'s error event, as a complete response (no runtime error), then meters it before the invocation is over', async () => {
      timeline.length = 0;
      setUpstreamScenario('broken');
      const sent = sqs.messages.length;

      const response = await invokeStreaming(running, { path, body }, marker);

      expectStreamedWithPrelude(response, 200);
      const text = response.body.toString('utf8');
      expect(text).toContain(marker);
      expect(text).toMatch(errorFrame);
      // A failure the handler rendered in-band: the runtime sends no error trailers and no /error.
      expect(response.trailers, running.runtime.output()).toEqual({});
      expect(response.midStreamError).toBeUndefined();
      expectBefore(timeline, 'upstream: connection broken', 'sqs: usage record failed', running.runtime.output());
      expectBefore(timeline, 'runtime: /response complete', 'sqs: usage record failed', running.runtime.output());
      expectBefore(timeline, 'sqs: usage record failed', 'runtime: invocation over (asks for the next)', running.runtime.output());
      expect(sqs.messages.slice(sent).map((message) => (JSON.parse(message.body) as { status: string }).status)).toEqual(['failed']);
    }, 30_000);

    it('refuses an unknown key before the first byte with a real status in the prelude', async () => {
      timeline.length = 0;
      const response = await invokeStreaming(running, { path, body, key: 'gw.not-a-key-of-this-gateway' });

      expectStreamedWithPrelude(response, 401);
      expect(JSON.parse(response.body.toString('utf8'))).toMatchObject({ error: expect.anything() });
      expect(response.midStreamError).toBeUndefined();
    }, 30_000);
  });
});
