import { expect } from 'vitest';
import { HTTP_INTEGRATION_CONTENT_TYPE, type RuntimeResponse } from '../support/lambda-runtime-api.ts';

/** The runtime received a streamed response behind the HTTP-integration prelude, with `status` in it. */
export function expectStreamedWithPrelude(response: RuntimeResponse, status: number) {
  expect(response.requestHeaders['lambda-runtime-function-response-mode']).toBe('streaming');
  expect(response.requestHeaders['transfer-encoding']).toBe('chunked');
  expect(response.requestHeaders['content-type']).toBe(HTTP_INTEGRATION_CONTENT_TYPE);
  expect(response.prelude?.statusCode).toBe(status);
}

/** `first` happened, and before `second`; the message shows the timeline and the function's logs. */
export function expectBefore(timeline: readonly string[], first: string, second: string, logs: string) {
  const message = `"${first}" before "${second}" in ${JSON.stringify(timeline)}\nfunction logs:\n${logs.slice(-4000)}`;
  expect(timeline, message).toContain(first);
  expect(timeline, message).toContain(second);
  expect(timeline.indexOf(first), message).toBeLessThan(timeline.indexOf(second));
}

/** One route group's streamed request through the runtime, and how its stream shows a late failure. */
export interface StreamCase {
  group: string;
  path: string;
  body: unknown;
  /** Text of the first delta, as it appears in the client's stream. */
  marker: string;
  /** The protocol's in-band error event, after the first byte. */
  errorFrame: RegExp;
}

export const streamCases: StreamCase[] = [
  {
    group: 'openai',
    path: '/v1/chat/completions',
    body: { model: 'openai/gpt-4o-mini', stream: true, messages: [{ role: 'user', content: 'What is 123 times 1?' }] },
    marker: '"content":"The"',
    errorFrame: /data: \{"error":\{[^\n]*\}\}\n\n$/,
  },
  {
    group: 'messages',
    path: '/v1/messages',
    body: { model: 'anthropic/claude-haiku-4-5', stream: true, max_tokens: 50, messages: [{ role: 'user', content: 'Say hello' }] },
    marker: '"text":"Hello"',
    errorFrame: /event: error\ndata: \{"type":"error",[^\n]*\}\n\n$/,
  },
  {
    // The editor client's chat completions onto an Anthropic model, through the canonical layer.
    group: 'editor',
    path: '/v1/editor/chat/completions',
    body: { model: 'anthropic/claude-haiku-4-5', stream: true, messages: [{ role: 'user', content: 'Say hello' }] },
    marker: '"content":"Hello"',
    // After content, a failure is text of its own and a clean end, which the editor shows.
    errorFrame: /"finish_reason":"stop"[\s\S]*data: \[DONE\]\n\n$/,
  },
];
