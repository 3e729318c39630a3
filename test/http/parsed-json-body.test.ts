import { afterEach, describe, expect, it, vi } from 'vitest';
import { chatCompletionsEndpoint } from '../../shared/endpoints/chat-completions.ts';
import { GatewayError } from '../../shared/core/errors.ts';
import { parsedJsonBody, type GatewayRequest } from '../../shared/http/gateway-http.ts';
import { isEditorClientRequest } from '../../shared/protocols/editor-chat/editor-client-detection.ts';

const requestWith = (body: Uint8Array | string, userAgent = 'OpenAI/JS 6.0.0'): GatewayRequest => ({
  method: 'POST',
  path: '/v1/chat/completions',
  query: new URLSearchParams(),
  headers: { 'user-agent': userAgent, 'content-type': 'application/json' },
  body: typeof body === 'string' ? new TextEncoder().encode(body) : body,
  sourceIp: '203.0.113.7',
});

afterEach(() => vi.restoreAllMocks());

describe('parsedJsonBody', () => {
  it('parses a request body once, however often it is asked for', () => {
    const request = requestWith('{"model":"openai/gpt-4o-mini","messages":[]}');
    const parse = vi.spyOn(JSON, 'parse');
    const first = parsedJsonBody(request);
    expect(parsedJsonBody({ ...request })).toBe(first);
    expect(first.value).toEqual({ model: 'openai/gpt-4o-mini', messages: [] });
    expect(parse).toHaveBeenCalledTimes(1);
  });

  it('parses another request of the same text on its own: nothing one request does to its body reaches another', () => {
    const text = '{"model":"m","messages":[{"role":"user","content":"hi"}]}';
    const first = parsedJsonBody(requestWith(text));
    (first.value as { model: string }).model = 'changed';
    expect(parsedJsonBody(requestWith(text)).value).toEqual({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });
  });

  it('refuses a body that is not JSON, or not UTF-8, with the same 400 each time', () => {
    const notJson = requestWith('{"model":');
    expect(() => parsedJsonBody(notJson)).toThrow(GatewayError);
    expect(() => parsedJsonBody(notJson)).toThrow(expect.objectContaining({ code: 'invalid_json' }));
    const notUtf8 = requestWith(new Uint8Array([0x7b, 0x22, 0xff, 0x22, 0x7d]));
    expect(() => parsedJsonBody(notUtf8)).toThrow(expect.objectContaining({ code: 'invalid_utf8' }));
  });
});

describe('a chat completion with tools on /v1/chat/completions', () => {
  it('is parsed once for both the editor detection and the endpoint', async () => {
    const tools = Array.from({ length: 20 }, (_, index) => ({ type: 'function', function: { name: `tool_${index}`, parameters: { type: 'object' } } }));
    const text = JSON.stringify({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], tools });
    const request = requestWith(text);
    const parse = vi.spyOn(JSON, 'parse');

    expect(isEditorClientRequest(request)).toBe(false);
    const parsed = await chatCompletionsEndpoint.parse(request);

    expect(parsed.tools).toEqual(tools);
    expect(parse.mock.calls.filter(([argument]) => argument === text)).toHaveLength(1);
  });

  it('is still told apart from the editor’s flat tools, whose body the editor endpoint then reads', () => {
    const text = JSON.stringify({ model: 'gpt-5', messages: [{ role: 'user', content: 'hi' }], tools: [{ type: 'function', name: 'ReadFile', parameters: {} }] });
    expect(isEditorClientRequest(requestWith(text))).toBe(true);
  });
});
