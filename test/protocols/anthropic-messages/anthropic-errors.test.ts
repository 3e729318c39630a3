import { describe, expect, it } from 'vitest';
import { configUnavailable, GatewayError, toGatewayError, type GatewayErrorKind } from '../../../shared/core/errors.ts';
import { SseEventSplitter, sseEventData } from '../../../shared/http/sse-event-splitter.ts';
import {
  anthropicErrorBody,
  anthropicStreamErrorFrame,
  passThroughUpstreamError,
  readAnthropicErrorBody,
  readAnthropicErrorWords,
  relayAnthropicUpstreamError,
  renderAnthropicError,
} from '../../../shared/protocols/anthropic-messages/anthropic-errors.ts';
import { readFixture } from '../../support/fixtures.ts';

describe('anthropicErrorBody', () => {
  it('has the Anthropic shape {type: "error", error: {type, message}}', () => {
    const error = new GatewayError('permission', 'The model "x" is not allowed.', { code: 'model_not_allowed', param: 'model' });
    expect(anthropicErrorBody(error)).toEqual({ type: 'error', error: { type: 'permission_error', message: 'The model "x" is not allowed.' } });
  });

  it('carries the request id as request_id, as Anthropic does', () => {
    const error = new GatewayError('authentication', 'Invalid project key.', { code: 'invalid_api_key' });
    expect(anthropicErrorBody(error, 'gen-abc').request_id).toBe('gen-abc');
  });

  it.each<[GatewayErrorKind, number, string]>([
    ['invalid_request', 400, 'invalid_request_error'],
    ['authentication', 401, 'authentication_error'],
    ['payment_required', 402, 'billing_error'],
    ['permission', 403, 'permission_error'],
    ['not_found', 404, 'not_found_error'],
    ['method_not_allowed', 405, 'invalid_request_error'],
    ['request_too_large', 413, 'request_too_large'],
    ['rate_limited', 429, 'rate_limit_error'],
    ['upstream', 502, 'api_error'],
    ['config_unavailable', 503, 'api_error'],
    ['internal', 500, 'api_error'],
  ])('answers kind %s with HTTP %i and Anthropic type %s', (kind, status, type) => {
    const error = new GatewayError(kind, 'm', { code: 'c' });
    const response = renderAnthropicError(error, {});
    expect(response.status).toBe(status);
    expect(JSON.parse(String(response.body))).toEqual({ type: 'error', error: { type, message: error.publicMessage } });
  });

  it('never exposes the message of an internal error', () => {
    const body = anthropicErrorBody(toGatewayError(new Error('connect ECONNREFUSED 10.0.3.7:8000')));
    expect(body.error.message).toBe('The gateway failed to handle the request.');
  });
});

describe('renderAnthropicError', () => {
  it("sends the error's own headers (retry-after) with the caller's, as JSON", () => {
    const response = renderAnthropicError(configUnavailable(new Error('dynamo down')), { 'x-request-id': 'gen-1' });
    expect(response.headers).toEqual({ 'content-type': 'application/json', 'retry-after': '1', 'x-request-id': 'gen-1' });
  });

  it('names the request id as Anthropic does: request_id in the body and a request-id header', () => {
    const response = renderAnthropicError(new GatewayError('permission', 'No.', { code: 'model_not_allowed' }), { 'x-request-id': 'gen-2' }, 'gen-2');
    expect(response.headers).toEqual({ 'content-type': 'application/json', 'x-request-id': 'gen-2', 'request-id': 'gen-2' });
    expect(JSON.parse(String(response.body))).toEqual({ type: 'error', error: { type: 'permission_error', message: 'No.' }, request_id: 'gen-2' });
  });
});

describe('anthropicStreamErrorFrame', () => {
  it('is one `event: error` SSE event whose data is the error body', () => {
    const error = new GatewayError('upstream', 'Provider "anthropic" broke off the stream.', { code: 'upstream_stream_interrupted' });
    const frame = anthropicStreamErrorFrame(error);
    expect(frame.startsWith('event: error\ndata: ')).toBe(true);
    const events = new SseEventSplitter().push(frame);
    expect(events).toEqual([frame]);
    expect(JSON.parse(sseEventData(frame) ?? '')).toEqual(anthropicErrorBody(error));
  });
});

describe('readAnthropicErrorBody', () => {
  it('reads the recorded mid-stream overloaded error, dropping fields a 502 need not carry', () => {
    expect(readAnthropicErrorBody(readFixture('anthropic/messages-stream-error-overloaded.data.json'))).toEqual({
      type: 'error',
      error: { type: 'overloaded_error', message: 'Overloaded' },
    });
  });

  it.each(['<html>Bad Gateway</html>', '{"error":"boom"}', '{"error":{"message":"no type"}}', '[]'])('finds no Anthropic error in %s', (text) => {
    expect(readAnthropicErrorBody(text)).toBeUndefined();
  });
});

describe('passThroughUpstreamError', () => {
  it.each([
    ['messages-error-400-invalid-request.json', 400],
    ['messages-error-429-rate-limit.json', 429],
    ['count-tokens-error-404-not-found.json', 404],
  ])('keeps the status and the exact body of the recorded upstream %s', (name, status) => {
    const body = readFixture(`anthropic/${name}`);
    expect(passThroughUpstreamError(status, body)).toEqual({ status, headers: { 'content-type': 'application/json' }, body });
  });

  it("turns the recorded 529 into 502, keeping the upstream's type, message and request id", () => {
    const response = passThroughUpstreamError(529, readFixture('anthropic/messages-error-529-overloaded.json'));
    expect(response.status).toBe(502);
    expect(JSON.parse(String(response.body))).toEqual({
      type: 'error',
      error: { type: 'overloaded_error', message: 'Overloaded' },
      request_id: 'req_011CZAau32QzxDkriovTaFCB',
    });
  });

  it('turns a 5xx that is not Anthropic-shaped into 502 api_error with the upstream text', () => {
    const response = passThroughUpstreamError(503, 'upstream connect error or disconnect/reset before headers\n');
    expect(response.status).toBe(502);
    expect(JSON.parse(String(response.body))).toEqual({
      type: 'error',
      error: { type: 'api_error', message: 'upstream connect error or disconnect/reset before headers' },
    });
  });

  it('names the status when a 5xx came without a body', () => {
    const response = passThroughUpstreamError(500, '');
    expect(JSON.parse(String(response.body))).toEqual({ type: 'error', error: { type: 'api_error', message: 'The provider failed with HTTP 500.' } });
  });

  it('keeps a 4xx body that is not JSON, as text', () => {
    expect(passThroughUpstreamError(413, 'Request Entity Too Large')).toEqual({
      status: 413,
      headers: { 'content-type': 'text/plain; charset=utf-8' },
      body: 'Request Entity Too Large',
    });
  });

  it("removes the provider's key should an upstream error echo it", () => {
    const key = 'sk-ant-api03-abcdefghijklmnop';
    const body = `{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key ${key}"}}`;
    const response = passThroughUpstreamError(401, body, { apiKey: key });
    expect(String(response.body)).not.toContain(key);
    expect(JSON.parse(String(response.body))).toEqual({
      type: 'error',
      error: { type: 'authentication_error', message: 'invalid x-api-key [redacted]' },
    });
  });
});

describe('relayAnthropicUpstreamError', () => {
  it.each([401, 403])("answers a provider %i with the gateway's own 502 api_error, never the provider's words", (status) => {
    const body = '{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"},"request_id":"req_1"}';
    const response = relayAnthropicUpstreamError({ status, retryAfter: null, contentType: 'application/json', body });
    expect(response.status).toBe(502);
    expect(JSON.parse(String(response.body))).toEqual({
      type: 'error',
      error: { type: 'api_error', message: `The provider rejected the project's credential (HTTP ${status}). An administrator must update it with "provider set".` },
    });
  });

  it('keeps any other 4xx as the upstream sent it, with its Retry-After', () => {
    const body = readFixture('anthropic/messages-error-429-rate-limit.json');
    const response = relayAnthropicUpstreamError({ status: 429, retryAfter: '7', contentType: 'application/json', body });
    expect(response).toEqual({ status: 429, headers: { 'content-type': 'application/json', 'retry-after': '7' }, body });
  });
});

describe('readAnthropicErrorWords', () => {
  const body = (type: string, message: string) => JSON.stringify({ type: 'error', error: { type, message }, request_id: 'req_011' });

  it('knows a full context window by its message, the only place Anthropic says so', () => {
    expect(readAnthropicErrorWords(body('invalid_request_error', 'prompt is too long: 208310 tokens > 200000 maximum'))).toEqual({
      type: 'invalid-request',
      message: 'prompt is too long: 208310 tokens > 200000 maximum',
      code: 'invalid_request_error',
      contextWindowExceeded: true,
    });
    const withMaxTokens = 'input length and `max_tokens` exceed context limit: 195000 + 8192 > 200000, decrease input length or `max_tokens` and try again';
    expect(readAnthropicErrorWords(body('invalid_request_error', withMaxTokens)).contextWindowExceeded).toBe(true);
  });

  it('leaves every other refusal as it is', () => {
    expect(readAnthropicErrorWords(readFixture('anthropic/messages-error-400-invalid-request.json')).contextWindowExceeded).toBeUndefined();
    expect(readAnthropicErrorWords(body('overloaded_error', 'prompt is too long')).contextWindowExceeded).toBeUndefined();
  });
});
