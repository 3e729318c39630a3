import { describe, expect, it, vi } from 'vitest';
import type { UsageRecord } from '../../shared/core/usage-record.ts';
import { jsonResponse } from '../../shared/http/gateway-http.ts';
import { createGatewayMetrics, METRICS_NAMESPACE, withResponseMetrics, withUsageMetrics, type GatewayMetrics } from '../../shared/wiring/metrics.ts';
import { sampleRecord } from '../support/sample-usage-record.ts';

interface EmfLine {
  _aws: { CloudWatchMetrics: Array<{ Namespace: string; Dimensions: string[][]; Metrics: Array<{ Name: string; Unit: string }> }> };
  [field: string]: unknown;
}

/** The embedded-metric lines the metrics write while `emit` runs. */
function captureEmf(emit: (metrics: GatewayMetrics) => void, enabled = true): EmfLine[] {
  const lines: string[] = [];
  emit(createGatewayMetrics({ serviceName: 'gateway-openai', enabled, write: (line) => lines.push(line) }));
  return lines.map((line) => JSON.parse(line) as EmfLine);
}

/** The metric names of each directive of a line, with the dimensions they are published under. */
const directives = (line: EmfLine | undefined) =>
  line?._aws.CloudWatchMetrics.map((directive) => ({ dimensions: directive.Dimensions, metrics: directive.Metrics.map(({ Name }) => Name) }));

describe('createGatewayMetrics', () => {
  it('counts a request, and its response by status, in one line under the gateway namespace and the function service', () => {
    const lines = captureEmf((metrics) => metrics.countResponse(429));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ Requests: 1, Responses: 1, service: 'gateway-openai', status: '429' });
    expect(lines[0]?._aws.CloudWatchMetrics.map(({ Namespace }) => Namespace)).toEqual([METRICS_NAMESPACE, METRICS_NAMESPACE]);
    expect(directives(lines[0])).toEqual([
      { dimensions: [['service']], metrics: ['Requests'] },
      { dimensions: [['service', 'status']], metrics: ['Responses'] },
    ]);
  });

  it('records latency, tokens, cost in USD and fallback attempts from a usage record, and counts it by status', () => {
    const record: UsageRecord = sampleRecord({ latencyMs: 1234, promptTokens: 100, completionTokens: 20, costNanos: 2_500_000, fallbackAttempts: 1 });
    const lines = captureEmf((metrics) => metrics.recordUsage(record));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ Latency: 1234, PromptTokens: 100, CompletionTokens: 20, CostUsd: 0.0025, FallbackAttempts: 1, UsageRecords: 1, status: record.status });
    expect(directives(lines[0])).toEqual([
      { dimensions: [['service']], metrics: ['Latency', 'PromptTokens', 'CompletionTokens', 'CostUsd', 'FallbackAttempts'] },
      { dimensions: [['service', 'status']], metrics: ['UsageRecords'] },
    ]);
  });

  it('records the time to first byte when the record carries it', () => {
    const lines = captureEmf((metrics) => metrics.recordUsage(sampleRecord({ upstreamLatencyMs: 321 })));
    expect(lines[0]).toMatchObject({ TimeToFirstByte: 321 });
    expect(directives(lines[0])?.[0]?.metrics).toContain('TimeToFirstByte');
  });

  it('leaves out a metric that is not a finite number and keeps the others', () => {
    const lines = captureEmf((metrics) => metrics.recordUsage({ ...sampleRecord({ promptTokens: 7 }), latencyMs: Number.NaN }));
    expect(lines[0]).not.toHaveProperty('Latency');
    expect(lines[0]).toMatchObject({ PromptTokens: 7, UsageRecords: 1 });
    expect(directives(lines[0])?.[0]?.metrics).not.toContain('Latency');
  });

  it('writes each line to stdout by default, as CloudWatch reads it from the function log', () => {
    const written: string[] = [];
    const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    try {
      createGatewayMetrics({ serviceName: 'gateway-openai', enabled: true }).countResponse(200);
    } finally {
      write.mockRestore();
    }
    expect(written).toHaveLength(1);
    expect(written[0]?.endsWith('\n')).toBe(true);
    expect(JSON.parse(written[0] ?? '')).toMatchObject({ Requests: 1, Responses: 1, status: '200' });
  });

  it('emits nothing outside Lambda (the local host)', () => {
    expect(
      captureEmf((metrics) => {
        metrics.countResponse(200);
        metrics.recordUsage(sampleRecord());
      }, false),
    ).toEqual([]);
  });
});

describe('metric decorators', () => {
  const recorder = (): GatewayMetrics & { statuses: number[]; records: UsageRecord[] } => {
    const statuses: number[] = [];
    const records: UsageRecord[] = [];
    return { statuses, records, countResponse: (status) => statuses.push(status), recordUsage: (record) => records.push(record) };
  };

  it('counts each response of the route group and returns it unchanged', async () => {
    const metrics = recorder();
    const response = jsonResponse(404, { error: 'nope' });
    const serve = withResponseMetrics(async () => response, metrics);
    expect(await serve({ method: 'GET', path: '/x', query: new URLSearchParams(), headers: {}, body: Buffer.alloc(0), sourceIp: '::1' })).toBe(response);
    expect(metrics.statuses).toEqual([404]);
  });

  it('records each usage record and still sends it, even when metrics fail', async () => {
    const sent: UsageRecord[] = [];
    const sink = { send: async (record: UsageRecord) => void sent.push(record) };
    const failing: GatewayMetrics = { countResponse: () => {}, recordUsage: () => { throw new Error('bad value'); } };
    const record = sampleRecord();
    await withUsageMetrics(sink, failing).send(record);
    const metrics = recorder();
    await withUsageMetrics(sink, metrics).send(record);
    expect(sent).toEqual([record, record]);
    expect(metrics.records).toEqual([record]);
  });
});
