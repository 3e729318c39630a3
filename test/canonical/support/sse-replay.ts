import { SseEventSplitter, sseEventData } from '../../../shared/http/sse-event-splitter.ts';
import { readFixture } from '../../support/fixtures.ts';

/**
 * The data payloads of an SSE body delivered in pieces cut at the given byte offsets, decoded as UTF-8 on
 * the way (a cut may fall inside a character) and split into events the way the gateway does.
 */
export function sseDataFromBytes(body: Uint8Array, cuts: number[] = []): string[] {
  const decoder = new TextDecoder();
  const splitter = new SseEventSplitter();
  const data: string[] = [];
  const take = (events: string[]) => {
    for (const event of events) {
      const payload = sseEventData(event);
      if (payload !== undefined) data.push(payload);
    }
  };
  const offsets = [...new Set(cuts)].filter((cut) => cut > 0 && cut < body.length).sort((a, b) => a - b);
  let from = 0;
  for (const cut of [...offsets, body.length]) {
    take(splitter.push(decoder.decode(body.subarray(from, cut), { stream: true })));
    from = cut;
  }
  take(splitter.push(decoder.decode()));
  take([splitter.flush()].filter((rest) => rest !== ''));
  return data;
}

/** A recorded Anthropic stream as its wire body (`.chunks.txt` lines wrapped as INDEX.md says). */
export function anthropicFixtureBody(name: string): string {
  const text = readFixture(`anthropic/${name}`);
  if (name.endsWith('.sse')) return text;
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => `event: ${(JSON.parse(line) as { type: string }).type}\ndata: ${line}\n\n`)
    .join('');
}

/** A recorded chat stream as its wire body (`.chunks.txt` lines wrapped, `[DONE]` added, as INDEX.md says). */
export function chatFixtureBody(name: string): string {
  const text = readFixture(`openai-chat/${name}`);
  if (name.endsWith('.sse')) return text;
  const lines = text.split('\n').filter((line) => line !== '');
  return [...lines.map((line) => `data: ${line}\n\n`), 'data: [DONE]\n\n'].join('');
}

/**
 * A recorded Responses stream as its wire body: `.sse` as recorded; `.chunks.txt` and `.chunks.jsonl` lines
 * wrapped as `event: <type>\ndata: <line>\n\n` (fixtures/INDEX.md).
 */
export function responsesFixtureBody(name: string): string {
  const text = readFixture(`openai-responses/${name}`);
  if (name.endsWith('.sse')) return text;
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => `event: ${(JSON.parse(line) as { type: string }).type}\ndata: ${line}\n\n`)
    .join('');
}

export const utf8 = (text: string) => new TextEncoder().encode(text);

/** The data payloads of a whole SSE body. */
export const sseData = (body: string) => sseDataFromBytes(utf8(body));
