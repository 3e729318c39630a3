import type { ServerResponse } from 'node:http';
import { sendJson, sseEvents, type ReceivedRequest, type UpstreamScript } from './fake-openai-upstream.ts';
import { readFixture } from './fixtures.ts';

/**
 * How an upstream answers one model: fine, an HTTP error, a broken connection, a stream with trouble, or a
 * head followed by nothing (`stall`: part of a JSON body; `stream-stall`: the first event), or part of a
 * JSON body and then a dropped connection (`json-break`).
 */
export type Behaviour = 'ok' | 408 | 429 | 500 | 503 | 400 | 'drop' | 'silent' | 'stall' | 'json-break' | 'stream-break' | 'stream-pause' | 'stream-stall';

/** The recorded stream the streaming behaviours send, event by event. */
export const streamEvents = sseEvents(readFixture('openai-chat/chat-stream-text-include-usage.sse'));

/**
 * A script for a fake upstream that appends `<who>:<model it received>` to `log` and answers as
 * `behaviours()` says for that entry ('ok' when unlisted): one log across several upstreams shows the order
 * in which the gateway tried them.
 */
export function scriptedUpstream(who: string, log: string[], behaviours: () => Record<string, Behaviour>): UpstreamScript {
  return (request: ReceivedRequest, response: ServerResponse) => {
    const entry = `${who}:${String(request.body.model)}`;
    log.push(entry);
    return answer(who, behaviours()[entry] ?? 'ok', response);
  };
}

async function answer(who: string, behaviour: Behaviour, response: ServerResponse): Promise<void> {
  if (behaviour === 'ok') return sendJson(response, 200, readFixture('openai-chat/chat-nonstream-text-usage-details.json'));
  if (behaviour === 429) return sendJson(response, 429, readFixture('openai-chat/chat-error-429-rate-limit-exceeded-2024.json'), { 'retry-after': '7' });
  if (behaviour === 400) return sendJson(response, 400, readFixture('openai-chat/chat-error-400-unsupported-parameter.json'));
  if (typeof behaviour === 'number') return sendJson(response, behaviour, { error: { message: `${who} overloaded`, type: 'server_error' } });
  if (behaviour === 'drop') return void response.socket?.destroy();
  if (behaviour === 'silent') return;
  if (behaviour === 'stall') return void response.writeHead(200, { 'content-type': 'application/json' }).write('{"id":"chatcmpl-stalled",');
  if (behaviour === 'json-break') {
    response.writeHead(200, { 'content-type': 'application/json' }).write('{"id":"chatcmpl-broken",');
    return void setTimeout(() => response.socket?.destroy(), 20);
  }
  // The head and the first event, then silence (or a dropped connection, or nothing more), then the rest.
  response.writeHead(200, { 'content-type': 'text/event-stream' });
  response.write(streamEvents[0]);
  if (behaviour === 'stream-stall') return;
  await new Promise((resolve) => setTimeout(resolve, behaviour === 'stream-pause' ? 350 : 20));
  if (behaviour === 'stream-break') return void response.socket?.destroy();
  for (const event of streamEvents.slice(1)) response.write(event);
  response.end();
}
