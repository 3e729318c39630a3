import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDocsServer, type McpUpstream } from '../support/mcp-upstream-servers.ts';
import { startTestGateway, type TestGateway } from '../support/test-gateway.ts';

/**
 * The tool bridge behind CloudFront, whose origin read timeout (800 ms here) ends a request whose origin
 * sent nothing: a JSON answer must be complete within three quarters of it (600 ms), an SSE answer sends
 * heartbeats (every 50 ms) and may take as long as its tool does.
 */
const DOCS_TOKEN = 'docs-secret-0123456789';
let gateway: TestGateway;
let docs: McpUpstream;
let key: string;

beforeAll(async () => {
  gateway = await startTestGateway({ GATEWAY_ORIGIN_READ_TIMEOUT_MS: '800', GATEWAY_HEARTBEAT_INTERVAL_MS: '50', GATEWAY_MCP_UPSTREAM_TIMEOUT_MS: '3000' });
  docs = await startDocsServer(DOCS_TOKEN);
  await gateway.admin({ command: 'project.create', projectId: 'cdn' });
  await gateway.admin({ command: 'project.update', projectId: 'cdn', mcp: true });
  await gateway.admin({ command: 'mcp.add', projectId: 'cdn', name: 'docs', url: docs.url, headers: [{ name: 'X-Docs-Token', value: DOCS_TOKEN }] });
  ({ key } = await gateway.admin<{ key: string }>({ command: 'key.create', projectId: 'cdn' }));
}, 30_000);

afterAll(async () => {
  await gateway?.close();
  await docs?.close();
});

const callStall = (accept: string, signal?: AbortSignal) =>
  fetch(`${gateway.url}/mcp/v1`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept, 'mcp-protocol-version': '2025-06-18' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'docs__stall', arguments: {} } }),
    ...(signal ? { signal } : {}),
  });

describe('a tool call behind CloudFront', () => {
  it('answered as JSON, gives up on a slow tool before CloudFront would, and says how to wait longer', async () => {
    const started = Date.now();
    const response = await callStall('application/json');
    const answer = (await response.json()) as { result: { content: Array<{ text: string }>; isError: boolean } };

    // Given up on when the JSON answer's 600 ms had passed, not at the server's own time-out of 3 s (the tool answers after a minute).
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(answer.result.isError).toBe(true);
    expect(answer.result.content[0]?.text).toMatch(/^The MCP server "docs" did not answer within 0\.\d s, what was left of the time a JSON answer may take; a client that accepts text\/event-stream is answered as a stream/);
  });

  it('answered as a stream, waits for the tool past that time, with heartbeats keeping CloudFront from giving up', async () => {
    const abort = new AbortController();
    const response = await callStall('text/event-stream, application/json;q=0.5', abort.signal);
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    const started = Date.now();
    let text = '';
    try {
      while (Date.now() - started < 1_200) {
        const { done, value } = await reader.read();
        if (done) break;
        text += decoder.decode(value, { stream: true });
      }
      // Still waiting for the tool after more than the read timeout, and never silent for long.
      expect(text).not.toMatch(/"result"/);
      expect((text.match(/^: keep-?alive$/gm) ?? []).length).toBeGreaterThan(5);
    } finally {
      abort.abort();
    }
  });
});
