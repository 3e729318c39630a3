import { describe, expect, it } from 'vitest';
import { GatewayError, toGatewayError, type GatewayErrorKind } from '../../../shared/core/errors.ts';
import {
  openAiErrorBody,
  openAiStreamErrorFrame,
  readOpenAiErrorWords,
  renderOpenAiError,
  writeOpenAiErrorBody,
} from '../../../shared/protocols/openai-chat/openai-errors.ts';

describe('openAiErrorBody', () => {
  it('has the OpenAI shape {error: {message, type, code, param}}', () => {
    const error = new GatewayError('permission', 'The model "x" is not allowed.', { code: 'model_not_allowed', param: 'model' });
    expect(openAiErrorBody(error)).toEqual({
      error: { message: 'The model "x" is not allowed.', type: 'permission_error', code: 'model_not_allowed', param: 'model' },
    });
  });

  it('sends param as null when the error is about no field', () => {
    const error = new GatewayError('authentication', 'Invalid project key.', { code: 'invalid_api_key' });
    expect(openAiErrorBody(error).error.param).toBeNull();
  });

  it.each<[GatewayErrorKind, string]>([
    ['invalid_request', 'invalid_request_error'],
    ['authentication', 'authentication_error'],
    ['payment_required', 'insufficient_quota'],
    ['permission', 'permission_error'],
    ['not_found', 'not_found_error'],
    ['method_not_allowed', 'invalid_request_error'],
    ['request_too_large', 'invalid_request_error'],
    ['rate_limited', 'rate_limit_error'],
    ['upstream', 'upstream_error'],
    ['config_unavailable', 'service_unavailable_error'],
    ['internal', 'server_error'],
  ])('gives kind %s the OpenAI type %s', (kind, type) => {
    expect(openAiErrorBody(new GatewayError(kind, 'm', { code: 'c' })).error.type).toBe(type);
  });

  it('never exposes the message of an internal error', () => {
    const error = toGatewayError(new Error('connect ECONNREFUSED 10.0.3.7:8000 (table gw-keys)'));
    const body = openAiErrorBody(error);
    expect(body.error.message).toBe('The gateway failed to handle the request.');
    expect(JSON.stringify(body)).not.toContain('ECONNREFUSED');
    expect(JSON.stringify(body)).not.toContain('Unexpected error');
  });
});

describe('renderOpenAiError', () => {
  it('answers with the error status, a JSON body and content-type', () => {
    const error = new GatewayError('permission', 'no', { code: 'model_not_allowed', param: 'model' });
    const response = renderOpenAiError(error, {});
    expect(response.status).toBe(403);
    expect(response.headers['content-type']).toBe('application/json');
    expect(JSON.parse(String(response.body))).toEqual({
      error: { message: 'no', type: 'permission_error', code: 'model_not_allowed', param: 'model' },
    });
  });

  it('sends the error headers and the given headers, the given ones winning', () => {
    const error = new GatewayError('rate_limited', 'slow down', { code: 'upstream_rate_limited', headers: { 'retry-after': '7' } });
    const response = renderOpenAiError(error, { 'x-request-id': 'gen-1', 'retry-after': '9' });
    expect(response.status).toBe(429);
    expect(response.headers).toEqual({ 'content-type': 'application/json', 'retry-after': '9', 'x-request-id': 'gen-1' });
  });

  it('keeps the retry-after of the error when the caller adds none', () => {
    const error = new GatewayError('config_unavailable', 'later', { code: 'config_unavailable', headers: { 'retry-after': '1' } });
    expect(renderOpenAiError(error, {}).headers['retry-after']).toBe('1');
  });
});

describe('openAiStreamErrorFrame', () => {
  it('is one SSE data frame carrying the error body, ended by a blank line', () => {
    const error = new GatewayError('upstream', 'Provider "openai" broke off the stream.', { code: 'upstream_stream_interrupted' });
    expect(openAiStreamErrorFrame(error)).toBe(
      'data: {"error":{"message":"Provider \\"openai\\" broke off the stream.","type":"upstream_error","code":"upstream_stream_interrupted","param":null}}\n\n',
    );
  });

  it('stays a single frame whatever the message contains', () => {
    const error = new GatewayError('upstream', 'line one\n\ndata: [DONE]\n\n', { code: 'upstream_error' });
    const frame = openAiStreamErrorFrame(error);
    expect(frame.match(/\n\n/g)).toHaveLength(1);
    expect(frame.endsWith('\n\n')).toBe(true);
    const payload: unknown = JSON.parse(frame.slice('data: '.length));
    expect(payload).toEqual({ error: { message: 'line one\n\ndata: [DONE]\n\n', type: 'upstream_error', code: 'upstream_error', param: null } });
  });

  it('hides the message of an internal error in the frame too', () => {
    const frame = openAiStreamErrorFrame(toGatewayError(new Error('/var/task/secret.js')));
    expect(frame).not.toContain('secret');
    expect(frame).toContain('The gateway failed to handle the request.');
  });
});

describe('an OpenAI-shaped upstream error relayed to another OpenAI protocol (chat upstream, Responses client)', () => {
  const upstreamBody = JSON.stringify({ error: { message: 'bad param foo', type: 'invalid_request_error', param: 'foo', code: 'bad' } });

  it('keeps the upstream code and the field it names', () => {
    expect(JSON.parse(writeOpenAiErrorBody(readOpenAiErrorWords(upstreamBody)))).toEqual({
      error: { message: 'bad param foo', type: 'invalid_request_error', code: 'bad', param: 'foo' },
    });
  });

  it('falls back to the upstream type as the code, and a null param, when the body has neither', () => {
    const body = JSON.stringify({ error: { message: 'slow down', type: 'rate_limit_error' } });
    expect(JSON.parse(writeOpenAiErrorBody(readOpenAiErrorWords(body))).error).toEqual({ message: 'slow down', type: 'rate_limit_error', code: 'rate_limit_error', param: null });
  });
});

describe('writeOpenAiErrorBody', () => {
  it("names a full context window by OpenAI's code, context_length_exceeded, whatever code the upstream used", () => {
    const words = { type: 'invalid-request' as const, message: 'prompt is too long: 208310 tokens > 200000 maximum', code: 'invalid_request_error', contextWindowExceeded: true };
    expect(JSON.parse(writeOpenAiErrorBody(words)).error).toEqual({ message: words.message, type: 'invalid_request_error', code: 'context_length_exceeded', param: null });
  });
});
