import { describe, expect, it } from 'vitest';
import { formatUsd } from '../../shared/core/price-usage.ts';
import { describeGeneration } from '../../shared/endpoints/describe-generation.ts';
import type { UsageRecord } from '../../shared/core/usage-record.ts';
import { sampleRecord } from '../support/sample-usage-record.ts';

describe('describeGeneration', () => {
  it('shows the spec 2.4 fields of a record', () => {
    const record = sampleRecord({
      requestId: 'req-spec-fields',
      model: 'openai/gpt-4o-mini',
      provider: 'openai',
      promptTokens: 100,
      completionTokens: 20,
      costNanos: 27_000,
      fallbackAttempts: 1,
      latencyMs: 350,
    });
    expect(describeGeneration(record)).toMatchObject({
      id: 'req-spec-fields',
      model: 'openai/gpt-4o-mini',
      provider: 'openai',
      tokens_prompt: 100,
      tokens_completion: 20,
      total_cost: 0.000027,
      usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120, cost: 0.000027 },
      fallback_attempts: 1,
      latency_ms: 350,
    });
  });

  it.each([0, 1, 150, 27_000, 770_100, 1_000_000_000, 12_345_678_901])(
    'shows a cost of %i nano-USD as the number its exact decimal names',
    (costNanos) => {
      const generation = describeGeneration(sampleRecord({ costNanos }));
      expect(generation.total_cost).toBe(Number(formatUsd(costNanos)));
      expect(generation.usage.cost).toBe(generation.total_cost);
      expect(Math.round(Number(generation.total_cost) * 1e9)).toBe(costNanos);
    },
  );

  it('shows cached and reasoning tokens, the estimate flag and the outcome', () => {
    const generation = describeGeneration(
      sampleRecord({ cachedTokens: 9_984, reasoningTokens: 64, estimated: true, status: 'cancelled', streamed: true, httpStatus: 200 }),
    );
    expect(generation).toMatchObject({
      native_tokens_cached: 9_984,
      native_tokens_reasoning: 64,
      estimated: true,
      streamed: true,
      cancelled: true,
      status: 'cancelled',
      http_status: 200,
    });
  });

  it('shows null, not undefined, for optional fields a record lacks', () => {
    const record = sampleRecord({ attribution: {} });
    delete record.finishReason;
    const generation = describeGeneration(record);
    for (const field of ['error_code', 'finish_reason', 'native_finish_reason', 'upstream_id', 'environment', 'http_referer', 'app_title', 'session_id', 'agent_id', 'user_agent', 'external_user', 'request_bytes', 'response_bytes', 'compression_saved_tokens'] as const) {
      expect(generation[field], field).toBeNull();
    }
    expect(generation.cancelled).toBe(false);
  });

  it('gives finish_reason in one vocabulary for every provider, as OpenRouter does, and the provider’s own word as native_finish_reason', () => {
    const shown = (finishReason: string | undefined, finish: UsageRecord['finish'], status: UsageRecord['status'] = 'completed') => {
      const record = sampleRecord({ status, ...(finish ? { finish } : {}) });
      if (finishReason === undefined) delete record.finishReason;
      else record.finishReason = finishReason;
      const { finish_reason, native_finish_reason } = describeGeneration(record);
      return [finish_reason, native_finish_reason];
    };
    expect(shown('end_turn', 'stop')).toEqual(['stop', 'end_turn']);
    expect(shown('tool_use', 'tool-calls')).toEqual(['tool_calls', 'tool_use']);
    // A Responses answer says `completed` whether or not it called tools: the canonical finish tells.
    expect(shown('completed', 'tool-calls')).toEqual(['tool_calls', 'completed']);
    expect(shown('max_output_tokens', 'length')).toEqual(['length', 'max_output_tokens']);
    expect(shown('refusal', 'content-filter')).toEqual(['content_filter', 'refusal']);
    expect(shown(undefined, undefined, 'failed')).toEqual(['error', null]);
    // A record from before the canonical finish was kept: the provider's word, as it was shown.
    expect(shown('end_turn', undefined)).toEqual(['end_turn', 'end_turn']);
  });

  it('shows the attribution under its OpenRouter-style names', () => {
    const generation = describeGeneration(
      sampleRecord({
        upstreamId: 'chatcmpl-1',
        errorCode: 'upstream_stream_interrupted',
        attribution: { environment: 'prod', referer: 'https://a.example/', title: 'App', sessionId: 's', agentId: 'a', userAgent: 'ua' },
      }),
    );
    expect(generation).toMatchObject({
      upstream_id: 'chatcmpl-1',
      error_code: 'upstream_stream_interrupted',
      environment: 'prod',
      http_referer: 'https://a.example/',
      app_title: 'App',
      session_id: 's',
      agent_id: 'a',
      user_agent: 'ua',
    });
  });

  it('shows the token counts and times under the names OpenRouter clients read, in tokens and milliseconds', () => {
    const generation = describeGeneration(sampleRecord({ promptTokens: 100, completionTokens: 20, latencyMs: 350, upstreamLatencyMs: 120 }));
    expect(generation).toMatchObject({
      tokens_prompt: 100,
      tokens_completion: 20,
      native_tokens_prompt: 100,
      native_tokens_completion: 20,
      latency: 350,
      generation_time: 350,
    });
  });

  it('shows the token counts and times under the names OpenRouter clients read, in tokens and milliseconds', () => {
    const generation = describeGeneration(sampleRecord({ promptTokens: 100, completionTokens: 20, latencyMs: 350, upstreamLatencyMs: 120 }));
    expect(generation).toMatchObject({
      tokens_prompt: 100,
      tokens_completion: 20,
      native_tokens_prompt: 100,
      native_tokens_completion: 20,
      latency: 350,
      generation_time: 350,
    });
  });

  it('shows the end user the request body named as OpenRouter’s external_user', () => {
    expect(describeGeneration(sampleRecord({ attribution: { endUser: 'user-123' } }))).toMatchObject({ external_user: 'user-123' });
  });

  it('shows a bridged tool call: its server and tool in the model slug, the bytes each way', () => {
    const generation = describeGeneration(
      sampleRecord({ endpoint: 'mcp.tools_call', model: 'mcp/docs/search', provider: 'mcp', costNanos: 0, requestBytes: 48, responseBytes: 1_024 }),
    );
    expect(generation).toMatchObject({ endpoint: 'mcp.tools_call', model: 'mcp/docs/search', provider: 'mcp', total_cost: 0, request_bytes: 48, response_bytes: 1_024 });
  });

  it('shows the tokens the editor profile’s prompt compression saved', () => {
    expect(describeGeneration(sampleRecord({ endpoint: 'editor.chat_completions', compressionSavedTokens: 1_234 }))).toMatchObject({ endpoint: 'editor.chat_completions', compression_saved_tokens: 1_234 });
  });
});
