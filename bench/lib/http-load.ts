import autocannon from 'autocannon';

/** One endpoint that answers OpenAI chat completions: the upstream itself, or something in front of it. */
export interface Target {
  name: string;
  url: string;
  headers: Record<string, string>;
  model: string;
}

export interface LoadRun {
  requests: number;
  /** Completed 2xx requests per second over the run. */
  throughput: number;
  /** Per-request latencies in ms, at full resolution (autocannon's own histogram counts whole milliseconds). */
  latencies: Float64Array;
  non2xx: number;
  errors: number;
}

export function chatBody(model: string, stream: boolean): string {
  return JSON.stringify({
    model,
    messages: [{ role: 'user', content: 'Say hello to the benchmark.' }],
    max_tokens: 32,
    ...(stream ? { stream: true, stream_options: { include_usage: true } } : {}),
  });
}

/**
 * Runs autocannon against one target for `seconds` with `connections` concurrent connections (no
 * pipelining). Latencies are taken from its per-response event: its own histogram has 1 ms resolution,
 * too coarse for sub-millisecond overheads.
 */
export async function runLoad(target: Target, connections: number, seconds: number): Promise<LoadRun> {
  const latencies: number[] = [];
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: `${target.url}/v1/chat/completions`,
        method: 'POST',
        headers: { 'content-type': 'application/json', ...target.headers },
        body: chatBody(target.model, false),
        connections,
        pipelining: 1,
        duration: seconds,
      },
      (error: unknown, finished: autocannon.Result) => (error ? reject(error instanceof Error ? error : new Error(String(error))) : resolve(finished)),
    );
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
    });
  });
  return {
    requests: result.requests.total,
    throughput: latencies.length / seconds,
    latencies: Float64Array.from(latencies),
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}
