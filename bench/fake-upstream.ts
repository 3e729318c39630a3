import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EVENT_GAP_MS, STREAM_EVENTS } from './lib/upstream-shape.ts';

/**
 * The bench's upstream: an OpenAI-compatible `POST /v1/chat/completions` that answers at once (non-
 * streaming: one small fixed completion with usage) or streams STREAM_EVENTS chunk events EVENT_GAP_MS
 * apart (`"bench_events": n` in the body asks for n), then a usage chunk and `[DONE]`. Every streamed
 * event carries `bench_seq` (0, 1, … the usage chunk last) so the load generator can tell a dropped or
 * merged event. `node bench/fake-upstream.ts [port]`.
 */
const completion = JSON.stringify({
  id: 'chatcmpl-bench',
  object: 'chat.completion',
  created: 1_740_823_200,
  model: 'gpt-4o-mini',
  choices: [{ index: 0, message: { role: 'assistant', content: 'Hello from the bench upstream.' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 12, completion_tokens: 7, total_tokens: 19 },
});

function chunkEvent(seq: number, last: boolean): string {
  const choice = { index: 0, delta: seq === 0 ? { role: 'assistant', content: 'w0 ' } : { content: `w${seq} ` }, finish_reason: last ? 'stop' : null };
  return `data: ${JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 1_740_823_200, model: 'gpt-4o-mini', bench_seq: seq, choices: [choice] })}\n\n`;
}

function usageEvent(events: number): string {
  return `data: ${JSON.stringify({
    id: 'chatcmpl-bench',
    object: 'chat.completion.chunk',
    created: 1_740_823_200,
    model: 'gpt-4o-mini',
    bench_seq: events,
    choices: [],
    usage: { prompt_tokens: 12, completion_tokens: events, total_tokens: 12 + events },
  })}\n\n`;
}

function stream(response: ServerResponse, events: number): void {
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  let seq = 0;
  const send = (): void => {
    if (response.destroyed) return;
    response.write(chunkEvent(seq, seq === events - 1));
    seq += 1;
    if (seq < events) {
      setTimeout(send, EVENT_GAP_MS);
      return;
    }
    response.end(`${usageEvent(events)}data: [DONE]\n\n`);
  };
  send();
}

function answer(request: IncomingMessage, response: ServerResponse, body: string): void {
  if (request.method !== 'POST' || !request.url?.endsWith('/chat/completions')) {
    response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}');
    return;
  }
  // A cheap look instead of JSON.parse: the upstream must stay far faster than what it measures.
  if (/"stream"\s*:\s*true/.test(body)) return stream(response, Number(/"bench_events"\s*:\s*(\d+)/.exec(body)?.[1] ?? STREAM_EVENTS));
  response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(completion) }).end(completion);
}

const server = createServer((request, response) => {
  let body = '';
  request.setEncoding('utf8');
  request.on('data', (chunk: string) => (body += chunk));
  request.on('end', () => answer(request, response, body));
});
server.keepAliveTimeout = 60_000;
server.listen(Number(process.argv[2] ?? 0), '127.0.0.1', () => {
  console.log(`fake upstream listening on ${(server.address() as AddressInfo).port}`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
