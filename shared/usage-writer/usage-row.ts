import type { UsageRecord } from '../core/usage-record.ts';

/**
 * A row of the usage files (Parquet, shared/usage-writer/usage-parquet.ts), snake_case: the columns of the
 * Glue table Athena reads and of the local DuckDB view, in order. Partitioned by `dt` (UTC day of
 * `created_at`) in the path, not stored in the row.
 */
export const usageColumns = [
  { name: 'record_id', type: 'string' },
  { name: 'id', type: 'string' },
  { name: 'project_id', type: 'string' },
  { name: 'key_id', type: 'string' },
  { name: 'endpoint', type: 'string' },
  { name: 'model', type: 'string' },
  { name: 'provider', type: 'string' },
  { name: 'streamed', type: 'boolean' },
  { name: 'status', type: 'string' },
  { name: 'http_status', type: 'int' },
  { name: 'error_code', type: 'string' },
  { name: 'finish_reason', type: 'string' },
  { name: 'tokens_prompt', type: 'bigint' },
  { name: 'tokens_completion', type: 'bigint' },
  { name: 'tokens_cached', type: 'bigint' },
  { name: 'tokens_cache_write', type: 'bigint' },
  { name: 'tokens_reasoning', type: 'bigint' },
  { name: 'estimated', type: 'boolean' },
  { name: 'cost_nanos', type: 'bigint' },
  { name: 'fallback_attempts', type: 'int' },
  { name: 'latency_ms', type: 'bigint' },
  { name: 'created_at', type: 'string' },
  { name: 'environment', type: 'string' },
  { name: 'http_referer', type: 'string' },
  { name: 'app_title', type: 'string' },
  { name: 'session_id', type: 'string' },
  { name: 'agent_id', type: 'string' },
  // Added with the tool bridge: sizes of a bridged tool call's params and result (null for generations).
  { name: 'request_bytes', type: 'bigint' },
  { name: 'response_bytes', type: 'bigint' },
  // Added with the editor route: prompt tokens its prompt compression saved (null for other endpoints).
  { name: 'compression_saved_tokens', type: 'bigint' },
  // Added with the endpoints beyond chat: units billed beyond tokens (null when none).
  { name: 'units_requests', type: 'bigint' },
  { name: 'units_images', type: 'bigint' },
  { name: 'units_audio_seconds', type: 'bigint' },
  { name: 'units_characters', type: 'bigint' },
  { name: 'units_search_units', type: 'bigint' },
  { name: 'units_video_seconds', type: 'bigint' },
  // Added with end-user attribution, after usage files existed: files written before it lack the column, and
  // every reader takes its absence as null (the compaction, the local view, Athena's by-name Parquet reads).
  { name: 'end_user', type: 'string' },
  // Added with one-hour cache writes: the part of tokens_cache_write written for an hour (null in older files).
  { name: 'tokens_cache_write_1h', type: 'bigint' },
  // Added with web search billing: the searches a provider ran for the model (null when none, and in older files).
  { name: 'units_web_searches', type: 'bigint' },
] as const;

export const USAGE_PARTITION_KEY = 'dt';

export type UsageColumnName = (typeof usageColumns)[number]['name'];
export type UsageRow = Record<UsageColumnName, string | number | boolean | null>;

export function toUsageRow(record: UsageRecord): UsageRow {
  return {
    record_id: record.recordId,
    id: record.requestId,
    project_id: record.projectId,
    key_id: record.keyId,
    endpoint: record.endpoint,
    model: record.model,
    provider: record.provider,
    streamed: record.streamed,
    status: record.status,
    http_status: record.httpStatus,
    error_code: record.errorCode ?? null,
    finish_reason: record.finishReason ?? null,
    tokens_prompt: record.promptTokens,
    tokens_completion: record.completionTokens,
    tokens_cached: record.cachedTokens,
    tokens_cache_write: record.cacheWriteTokens,
    tokens_reasoning: record.reasoningTokens,
    estimated: record.estimated,
    cost_nanos: record.costNanos,
    fallback_attempts: record.fallbackAttempts,
    latency_ms: record.latencyMs,
    created_at: record.createdAt,
    environment: record.attribution.environment ?? null,
    http_referer: record.attribution.referer ?? null,
    app_title: record.attribution.title ?? null,
    session_id: record.attribution.sessionId ?? null,
    agent_id: record.attribution.agentId ?? null,
    request_bytes: record.requestBytes ?? null,
    response_bytes: record.responseBytes ?? null,
    compression_saved_tokens: record.compressionSavedTokens ?? null,
    units_requests: record.units?.requests ?? null,
    units_images: record.units?.images ?? null,
    units_audio_seconds: record.units?.audioSeconds ?? null,
    units_characters: record.units?.characters ?? null,
    units_search_units: record.units?.searchUnits ?? null,
    units_video_seconds: record.units?.videoSeconds ?? null,
    end_user: record.attribution.endUser ?? null,
    tokens_cache_write_1h: record.cacheWrite1hTokens,
    units_web_searches: record.units?.webSearches ?? null,
  };
}

/** The UTC day of the record (`YYYY-MM-DD`): its partition. Copies of one record are always in the same day. */
export function usageDayOf(record: UsageRecord): string {
  return record.createdAt.slice(0, 10);
}
