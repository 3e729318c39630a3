import type { UsageSink } from '../core/ports.ts';
import type { UsageRecord } from '../core/usage-record.ts';
import type { GatewayRequest, GatewayResponse } from '../http/gateway-http.ts';
import { embeddedMetricLine, type MetricDirective } from './embedded-metrics.ts';

/** The CloudWatch namespace of every gateway metric; dimension `service` names the function. */
export const METRICS_NAMESPACE = 'ModelGateway';

/** What the request path reports, as CloudWatch embedded metrics (one JSON log line per flush). */
export interface GatewayMetrics {
  /** One per request: `Requests`, and `Responses` by HTTP status (the status of the response head). */
  countResponse(status: number): void;
  /** One per metered request: latency, tokens, cost and fallback attempts; `UsageRecords` by record status. */
  recordUsage(record: UsageRecord): void;
}

const NANOS_PER_USD = 1e9;

/**
 * Writes each request's metrics as two EMF lines on stdout (in Lambda, the function's log stream), the
 * response's when its head is known and the usage record's when it is sent. Written here rather than with
 * Powertools Metrics, which took ~150 µs of CPU per request for the same metrics: a new instance per
 * `singleMetric()`, an environment read on every store access, four lines (docs/performance.md).
 */
export function createGatewayMetrics(options: { serviceName: string; enabled: boolean; write?: (line: string) => void }): GatewayMetrics {
  if (!options.enabled) return { countResponse: () => {}, recordUsage: () => {} };
  const write = options.write ?? ((line: string) => process.stdout.write(`${line}\n`));
  const emit = (dimensionValues: Record<string, string>, directives: MetricDirective[]): void => {
    const line = embeddedMetricLine(METRICS_NAMESPACE, options.serviceName, dimensionValues, directives);
    if (line !== undefined) write(line);
  };
  return {
    countResponse(status) {
      emit({ status: String(status) }, [
        { dimensions: [], metrics: [{ name: 'Requests', unit: 'Count', value: 1 }] },
        { dimensions: ['status'], metrics: [{ name: 'Responses', unit: 'Count', value: 1 }] },
      ]);
    },
    recordUsage(record) {
      emit({ status: record.status }, [
        {
          dimensions: [],
          metrics: [
            { name: 'Latency', unit: 'Milliseconds', value: record.latencyMs },
            ...(record.upstreamLatencyMs === undefined ? [] : [{ name: 'TimeToFirstByte', unit: 'Milliseconds' as const, value: record.upstreamLatencyMs }]),
            { name: 'PromptTokens', unit: 'Count', value: record.promptTokens },
            { name: 'CompletionTokens', unit: 'Count', value: record.completionTokens },
            // For dashboards only: the exact cost is the integer cost_nanos of the usage files.
            { name: 'CostUsd', unit: 'None', value: record.costNanos / NANOS_PER_USD },
            { name: 'FallbackAttempts', unit: 'Count', value: record.fallbackAttempts },
          ],
        },
        { dimensions: ['status'], metrics: [{ name: 'UsageRecords', unit: 'Count', value: 1 }] },
      ]);
    },
  };
}

/** Counts each response by status; a failure to emit never fails the request. */
export function withResponseMetrics(
  serve: (request: GatewayRequest) => Promise<GatewayResponse>,
  metrics: GatewayMetrics,
): (request: GatewayRequest) => Promise<GatewayResponse> {
  return async (request) => {
    const response = await serve(request);
    emitSafely(() => metrics.countResponse(response.status));
    return response;
  };
}

/** Records the metrics of each usage record the request path hands to the sink. */
export function withUsageMetrics(sink: UsageSink, metrics: GatewayMetrics): UsageSink {
  return {
    send(record) {
      emitSafely(() => metrics.recordUsage(record));
      return sink.send(record);
    },
    ...(sink.expect ? { expect: (record: UsageRecord) => sink.expect?.(record) } : {}),
  };
}

function emitSafely(emit: () => void): void {
  try {
    emit();
  } catch {
    // Metrics are observability, not behaviour: a malformed value must not cost a client its answer.
  }
}
