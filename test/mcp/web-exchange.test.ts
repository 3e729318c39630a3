import { describe, expect, it } from 'vitest';
import { toWebRequest, untilDone } from '../../shared/mcp/web-exchange.ts';

function streamOf(chunks: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
}

describe('toWebRequest', () => {
  it('hands the MCP transport its headers, never the project key or the origin secret', () => {
    const request = toWebRequest({
      method: 'POST',
      path: '/mcp/v1',
      query: new URLSearchParams(),
      headers: { authorization: 'Bearer gw.key', 'x-origin-verify': 'secret', 'content-type': 'application/json', 'mcp-protocol-version': '2025-06-18', accept: 'application/json' },
      body: Buffer.from('{}'),
      sourceIp: '203.0.113.9',
    });
    expect(Object.fromEntries(request.headers.entries())).toEqual({
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
      'mcp-protocol-version': '2025-06-18',
    });
  });
});

describe('untilDone', () => {
  it('runs done once, before the body ends', async () => {
    const events: string[] = [];
    const body = untilDone(streamOf(['a', 'b']), { cancelled: () => events.push('cancelled'), done: async () => void events.push('done') });

    const text = await new Response(body).text();
    events.push('ended');

    expect(text).toBe('ab');
    expect(events).toEqual(['done', 'ended']);
  });

  it('on a cancelled body, says so first, then runs done once', async () => {
    const events: string[] = [];
    const never = new ReadableStream<Uint8Array>({ pull: () => new Promise(() => {}) });
    const body = untilDone(never, { cancelled: () => events.push('cancelled'), done: async () => void events.push('done') });

    await body.cancel('client gone');

    expect(events).toEqual(['cancelled', 'done']);
  });
});
