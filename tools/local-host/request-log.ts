import { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { UsageSink } from '../../shared/core/ports.ts';
import { formatUsd } from '../../shared/core/price-usage.ts';
import type { UsageRecord } from '../../shared/core/usage-record.ts';

/** What one request's line says: never a body, a header or a query string (they may hold prompts and keys). */
export interface RequestLogEntry {
  method: string;
  path: string;
  status: number;
  latencyMs: number;
  usage?: Pick<UsageRecord, 'model' | 'promptTokens' | 'completionTokens' | 'costNanos'> & Partial<Pick<UsageRecord, 'status' | 'errorCode'>>;
}

/**
 * `POST /v1/chat/completions 200 · mock/echo · 23 ms · 11 in / 11 out tokens · $0.00000825`. A request
 * whose record did not complete says how it ended beside its status: a stream that broke off after its 200
 * (`200 (failed: upstream_stream_interrupted)`), a client gone (`200 (cancelled)`).
 */
export function formatRequestLine(entry: RequestLogEntry): string {
  const ended = entry.usage?.status && entry.usage.status !== 'completed' ? ` (${entry.usage.status}${entry.usage.errorCode ? `: ${entry.usage.errorCode}` : ''})` : '';
  const parts = [`${entry.method} ${entry.path} ${entry.status}${ended}`];
  if (entry.usage) parts.push(entry.usage.model);
  parts.push(`${entry.latencyMs} ms`);
  if (entry.usage) {
    parts.push(`${entry.usage.promptTokens} in / ${entry.usage.completionTokens} out tokens`, `$${formatUsd(entry.usage.costNanos)}`);
  }
  return parts.join(' · ');
}

/** The Lambda Invoke API of the admin CLI: its own traffic, not the gateway's requests. */
const INVOKE_API_PREFIX = '/2015-03-31/';
/** The liveness probe, which the admin CLI sends before each command (host-file.ts): no line of its own. */
const HEALTH_PATH = '/health';

export interface RequestLog {
  /** The usage sink to register: it notes each record on the request being served, then hands it on. */
  observe(sink: UsageSink): UsageSink;
  /** Serves one request with `serve`, then writes its line (when logging is on). */
  serve(request: Pick<IncomingMessage, 'method' | 'url'>, response: Pick<ServerResponse, 'statusCode'>, serve: () => Promise<void>): Promise<void>;
}

/**
 * The local host's terminal line per request, from the HTTP exchange and the request's usage record.
 * The record is handed over inside the handler's run (before the invocation ends), so an async context
 * ties it to its request without matching ids. `write` undefined: nothing is logged.
 */
export function createRequestLog(write: ((line: string) => void) | undefined, now: () => number = Date.now): RequestLog {
  const current = new AsyncLocalStorage<{ usage?: UsageRecord }>();
  return {
    observe: (sink) => ({
      send(record) {
        const request = current.getStore();
        if (request) request.usage = record;
        return sink.send(record);
      },
      ...(sink.expect ? { expect: (record: UsageRecord) => sink.expect?.(record) } : {}),
    }),
    async serve(request, response, serve) {
      const path = (request.url ?? '/').split('?')[0] ?? '/';
      if (!write || path.startsWith(INVOKE_API_PREFIX) || path === HEALTH_PATH) return serve();
      const startedAt = now();
      const noted: { usage?: UsageRecord } = {};
      try {
        await current.run(noted, serve);
      } finally {
        write(formatRequestLine({ method: request.method ?? 'GET', path, status: response.statusCode, latencyMs: now() - startedAt, usage: noted.usage }));
      }
    },
  };
}
