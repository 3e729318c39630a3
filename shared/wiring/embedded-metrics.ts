/**
 * CloudWatch's embedded metric format (EMF): one JSON log line whose `_aws` directives name the members that
 * are metrics and the dimensions they are published under. A line may hold several directives, so a
 * request's counts and its counts by status leave in one write.
 * https://docs.aws.amazon.com/AmazonCloudWatch/latest/monitoring/CloudWatch_Embedded_Metric_Format_Specification.html
 */
export type MetricUnit = 'Count' | 'Milliseconds' | 'None';

export interface MetricDirective {
  /** The dimension names, each a key of the line's `dimensionValues`; `service` is added to every directive. */
  dimensions: string[];
  metrics: Array<{ name: string; unit: MetricUnit; value: number }>;
}

/**
 * The line for `directives`, or none when no metric has a finite value (CloudWatch refuses a line with a
 * metric that is not a number; such a metric is left out rather than losing the others).
 */
export function embeddedMetricLine(namespace: string, service: string, dimensionValues: Record<string, string>, directives: MetricDirective[], now = Date.now()): string | undefined {
  const line: Record<string, unknown> = { ...dimensionValues, service };
  const cloudWatchMetrics = [];
  for (const directive of directives) {
    const metrics = directive.metrics.filter(({ value }) => Number.isFinite(value));
    if (metrics.length === 0) continue;
    for (const { name, value } of metrics) line[name] = value;
    cloudWatchMetrics.push({ Namespace: namespace, Dimensions: [['service', ...directive.dimensions]], Metrics: metrics.map(({ name, unit }) => ({ Name: name, Unit: unit })) });
  }
  if (cloudWatchMetrics.length === 0) return undefined;
  line._aws = { Timestamp: now, CloudWatchMetrics: cloudWatchMetrics };
  return JSON.stringify(line);
}
