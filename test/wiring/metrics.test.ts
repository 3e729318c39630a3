import { afterEach, describe, expect, it, vi } from 'vitest';
import type { UsageRecord } from '../../shared/core/usage-record.ts';
import { jsonResponse } from '../../shared/http/gateway-http.ts';
import { createGatewayMetrics, METRICS_NAMESPACE, withResponseMetrics, withUsageMetrics, type GatewayMetrics } from '../../shared/wiring/metrics.ts';
import { sampleRecord } from '../support/sample-usage-record.ts';

interface EmfLine {
  _aws: { CloudWatchMetrics: Array<{ Namespace: string; Dimensions: string[][]; Metrics: Array<{ Name: string; Unit: string }> }> };
  [field: string]: unknown;
}

/** The embedded-metric lines Powertools writes to stdout while `emit` runs. */
function captureEmf(emit: () => void): EmfLine[] {
  const lines: string[] = [];
  const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  });
  try {
    emit();
  } finally {
    write.mockRestore();
  }
  return lines.flatMap((text) => text.split('\n')).filter((line) => line.includes('"_aws"')).map((line) => JSON.parse(line) as EmfLine);
}

const metricNames = (line: EmfLine) => line._aws.CloudWatchMetrics.flatMap((directive) => directive.Metrics.map(({ Name }) => Name));

afterEach(() => vi.restoreAllMocks());

describe('createGatewayMetrics', () => {
  it('counts a request and its response by status, under the gateway namespace and the function service', () => {
    const metrics = createGatewayMetrics({ serviceName: 'gateway-openai', enabled: true });
    const lines = captureEmf(() => metrics.countResponse(429));
    expect(lines.map(metricNames)).toEqual([['Requests'], ['Responses']]);
    expect(lines[0]).toMatchObject({ Requests: 1, service: 'gateway-openai' });
    expect(lines[0]?._aws.CloudWatchMetrics[0]?.Namespace).toBe(METRICS_NAMESPACE);
    expect(lines[1]).toMatchObject({ Responses: 1, status: '429' });
    expect(lines[1]?._aws.CloudWatchMetrics[0]?.Dimensions[0]).toContain('status');
  });

  it('records latency, tokens, cost in USD and fallback attempts from a usage record', () => {
    const metrics = createGatewayMetrics({ serviceName: 'gateway-openai', enabled: true });
    const record: UsageRecord = sampleRecord({ latencyMs: 1234, promptTokens: 100, completionTokens: 20, costNanos: 2_500_000, fallbackAttempts: 1 });
    const lines = captureEmf(() => metrics.recordUsage(record));
    expect(lines[0]).toMatchObject({ Latency: 1234, PromptTokens: 100, CompletionTokens: 20, CostUsd: 0.0025, FallbackAttempts: 1 });
    expect(lines[1]).toMatchObject({ UsageRecords: 1, status: record.status });
  });

  it('records the time to first byte when the record carries it', () => {
    const metrics = createGatewayMetrics({ serviceName: 'gateway-openai', enabled: true });
    const lines = captureEmf(() => metrics.recordUsage(sampleRecord({ upstreamLatencyMs: 321 })));
    expect(lines[0]).toMatchObject({ TimeToFirstByte: 321 });
  });

  it('emits nothing outside Lambda (the local host)', () => {
    const metrics = createGatewayMetrics({ serviceName: 'gateway-openai', enabled: false });
    expect(captureEmf(() => {
      metrics.countResponse(200);
      metrics.recordUsage(sampleRecord());
    })).toEqual([]);
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
