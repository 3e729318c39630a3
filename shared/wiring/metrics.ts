import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import type { UsageSink } from '../core/ports.ts';
import type { UsageRecord } from '../core/usage-record.ts';
import type { GatewayRequest, GatewayResponse } from '../http/gateway-http.ts';

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

export function createGatewayMetrics(options: { serviceName: string; enabled: boolean }): GatewayMetrics {
  if (!options.enabled) return { countResponse: () => {}, recordUsage: () => {} };
  const metrics = new Metrics({ namespace: METRICS_NAMESPACE, serviceName: options.serviceName });
  const countBy = (name: string, dimension: string, value: string): void => {
    // A single metric flushes at once with its own dimension, leaving the shared store's dimensions alone.
    metrics.singleMetric().addDimension(dimension, value).addMetric(name, MetricUnit.Count, 1);
  };
  return {
    countResponse(status) {
      metrics.addMetric('Requests', MetricUnit.Count, 1);
      metrics.publishStoredMetrics();
      countBy('Responses', 'status', String(status));
    },
    recordUsage(record) {
      metrics.addMetric('Latency', MetricUnit.Milliseconds, record.latencyMs);
      if (record.upstreamLatencyMs !== undefined) metrics.addMetric('TimeToFirstByte', MetricUnit.Milliseconds, record.upstreamLatencyMs);
      metrics.addMetric('PromptTokens', MetricUnit.Count, record.promptTokens);
      metrics.addMetric('CompletionTokens', MetricUnit.Count, record.completionTokens);
      // For dashboards only: the exact cost is the integer cost_nanos of the usage files.
      metrics.addMetric('CostUsd', MetricUnit.NoUnit, record.costNanos / NANOS_PER_USD);
      metrics.addMetric('FallbackAttempts', MetricUnit.Count, record.fallbackAttempts);
      metrics.publishStoredMetrics();
      countBy('UsageRecords', 'status', record.status);
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
