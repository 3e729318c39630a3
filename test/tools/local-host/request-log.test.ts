import { describe, expect, it } from 'vitest';
import type { UsageSink } from '../../../shared/core/ports.ts';
import type { UsageRecord } from '../../../shared/core/usage-record.ts';
import { createRequestLog, formatRequestLine } from '../../../tools/local-host/request-log.ts';
import { sampleRecord } from '../../support/sample-usage-record.ts';

const usage = { model: 'mock/echo', promptTokens: 11, completionTokens: 12, costNanos: 8_850 };

describe('formatRequestLine', () => {
  it('says method, path, status, model, latency, tokens and cost in one line', () => {
    expect(formatRequestLine({ method: 'POST', path: '/v1/chat/completions', status: 200, latencyMs: 23, usage })).toBe(
      'POST /v1/chat/completions 200 · mock/echo · 23 ms · 11 in / 12 out tokens · $0.00000885',
    );
  });

  it('says how a request whose record did not complete ended: a stream broken off after its 200, a client gone', () => {
    expect(formatRequestLine({ method: 'POST', path: '/v1/chat/completions', status: 200, latencyMs: 40, usage: { ...usage, status: 'failed', errorCode: 'upstream_stream_interrupted' } })).toBe(
      'POST /v1/chat/completions 200 (failed: upstream_stream_interrupted) · mock/echo · 40 ms · 11 in / 12 out tokens · $0.00000885',
    );
    expect(formatRequestLine({ method: 'POST', path: '/v1/messages', status: 200, latencyMs: 5, usage: { ...usage, status: 'cancelled' } })).toMatch(/^POST \/v1\/messages 200 \(cancelled\) · /);
    expect(formatRequestLine({ method: 'POST', path: '/v1/messages', status: 200, latencyMs: 5, usage: { ...usage, status: 'completed' } })).toMatch(/^POST \/v1\/messages 200 · /);
  });

  it('leaves out what a request without usage does not have', () => {
    expect(formatRequestLine({ method: 'GET', path: '/v1/models', status: 401, latencyMs: 2 })).toBe('GET /v1/models 401 · 2 ms');
  });
});

describe('createRequestLog', () => {
  const forwarded: UsageRecord[] = [];
  const queue: UsageSink = { send: async (record) => void forwarded.push(record) };
  let clock = 1_000;
  const now = () => clock;

  it("writes each request's line with its own usage record, even when requests overlap", async () => {
    const lines: string[] = [];
    const log = createRequestLog((line) => lines.push(line), now);
    const sink = log.observe(queue);
    let finishFirst: () => void = () => {};
    const first = log.serve({ method: 'POST', url: '/v1/chat/completions?debug=1' }, { statusCode: 200 }, async () => {
      await new Promise<void>((resolve) => (finishFirst = resolve));
      await sink.send(sampleRecord({ model: 'mock/first', promptTokens: 1, completionTokens: 2, costNanos: 3 }));
    });
    await log.serve({ method: 'POST', url: '/v1/messages' }, { statusCode: 201 }, async () => {
      clock += 5;
      await sink.send(sampleRecord({ model: 'mock/second', promptTokens: 4, completionTokens: 5, costNanos: 6 }));
    });
    finishFirst();
    await first;

    expect(lines).toEqual([
      'POST /v1/messages 201 · mock/second · 5 ms · 4 in / 5 out tokens · $0.000000006',
      'POST /v1/chat/completions 200 · mock/first · 5 ms · 1 in / 2 out tokens · $0.000000003',
    ]);
    expect(forwarded.map((record) => record.model)).toEqual(['mock/second', 'mock/first']);
  });

  it('writes a line for a request that metered nothing, and never its query string', async () => {
    const lines: string[] = [];
    await createRequestLog((line) => lines.push(line), now).serve({ method: 'GET', url: '/v1/generation?id=secret-ish' }, { statusCode: 404 }, async () => {});
    expect(lines).toEqual(['GET /v1/generation 404 · 0 ms']);
  });

  it("leaves out the admin CLI's Invoke API calls and its liveness probe, and writes nothing without a writer", async () => {
    const lines: string[] = [];
    await createRequestLog((line) => lines.push(line), now).serve({ method: 'POST', url: '/2015-03-31/functions/admin/invocations' }, { statusCode: 200 }, async () => {});
    await createRequestLog((line) => lines.push(line), now).serve({ method: 'GET', url: '/health' }, { statusCode: 200 }, async () => {});
    expect(lines).toEqual([]);
    let served = false;
    await createRequestLog(undefined).serve({ method: 'GET', url: '/health' }, { statusCode: 200 }, async () => void (served = true));
    expect(served).toBe(true);
  });
});
