import { formatUsd } from '../core/price-usage.ts';
import type { UsageRecord } from '../core/usage-record.ts';
import { toChatFinishReason } from '../protocols/openai-chat/chat-finish-reason.ts';

/**
 * A usage record as `GET /v1/generation` shows it (spec 2.4, plus the OpenRouter fields users expect).
 * `exact` renders the cost; the default gives a plain number, the HTTP answer an exact decimal literal.
 */
export function describeGeneration(record: UsageRecord, exact: (decimal: string) => unknown = Number) {
  const cost = exact(formatUsd(record.costNanos));
  return {
    id: record.requestId,
    model: record.model,
    provider: record.provider,
    provider_name: record.provider,
    tokens_prompt: record.promptTokens,
    tokens_completion: record.completionTokens,
    total_cost: cost,
    usage: {
      prompt_tokens: record.promptTokens,
      completion_tokens: record.completionTokens,
      total_tokens: record.promptTokens + record.completionTokens,
      cost,
    },
    // OpenRouter's native counts are the provider's own; the gateway keeps one count (the provider's, else its estimate).
    native_tokens_prompt: record.promptTokens,
    native_tokens_completion: record.completionTokens,
    native_tokens_cached: record.cachedTokens,
    native_tokens_cache_write: record.cacheWriteTokens,
    // Of those, the ones written for an hour (priced apart: Anthropic's `ttl: "1h"`).
    native_tokens_cache_write_1h: record.cacheWrite1hTokens,
    native_tokens_reasoning: record.reasoningTokens,
    // Units billed beyond tokens, when the request had any (images made, seconds of audio, …).
    billed_units: record.units
      ? {
          requests: record.units.requests ?? 0,
          images: record.units.images ?? 0,
          audio_seconds: record.units.audioSeconds ?? 0,
          characters: record.units.characters ?? 0,
          search_units: record.units.searchUnits ?? 0,
          video_seconds: record.units.videoSeconds ?? 0,
          web_searches: record.units.webSearches ?? 0,
        }
      : null,
    estimated: record.estimated,
    fallback_attempts: record.fallbackAttempts,
    latency_ms: record.latencyMs,
    latency: record.latencyMs,
    // OpenRouter's generation time is its latency less its moderation, which the gateway does not run.
    generation_time: record.latencyMs,
    time_to_first_byte_ms: record.upstreamLatencyMs ?? null,
    created_at: record.createdAt,
    streamed: record.streamed,
    cancelled: record.status === 'cancelled',
    status: record.status,
    http_status: record.httpStatus,
    error_code: record.errorCode ?? null,
    // OpenRouter's pair: the finish in one vocabulary whatever the provider, and the provider's own word.
    finish_reason: normalizedFinishReason(record),
    native_finish_reason: record.finishReason ?? null,
    upstream_id: record.upstreamId ?? null,
    endpoint: record.endpoint,
    request_bytes: record.requestBytes ?? null,
    response_bytes: record.responseBytes ?? null,
    compression_saved_tokens: record.compressionSavedTokens ?? null,
    key_id: record.keyId,
    environment: record.attribution.environment ?? null,
    http_referer: record.attribution.referer ?? null,
    app_title: record.attribution.title ?? null,
    session_id: record.attribution.sessionId ?? null,
    agent_id: record.attribution.agentId ?? null,
    user_agent: record.attribution.userAgent ?? null,
    // OpenRouter's name for the end user the request body named (`user`, `metadata.user_id`); `end_user` in the usage files.
    external_user: record.attribution.endUser ?? null,
  };
}

/**
 * `finish_reason` as OpenRouter gives it, one vocabulary for every provider: the record's canonical finish
 * in OpenAI chat's words, with OpenRouter's `error` (and nothing for a finish no word names), else `error`
 * for a request that failed before its answer said how it ended; a record written before the canonical
 * finish was kept (2026-11-25) has only the provider's word, given as it is.
 */
function normalizedFinishReason(record: UsageRecord): string | null {
  if (record.finish === 'error' || (!record.finish && record.status === 'failed')) return 'error';
  if (record.finish === 'other') return null;
  return record.finish ? toChatFinishReason(record.finish) : (record.finishReason ?? null);
}
