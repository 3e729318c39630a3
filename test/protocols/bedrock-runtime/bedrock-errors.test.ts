import { describe, expect, it } from 'vitest';
import { interpretBedrockErrorAnswer, readBedrockErrorWords } from '../../../shared/protocols/bedrock-runtime/bedrock-errors.ts';
import { awsErrorName } from '../../../shared/transport/aws-error-name.ts';
import { isGatewaySideUpstreamStatus, upstreamAnswerToGatewayError, type UpstreamErrorAnswer } from '../../../shared/transport/upstream-errors.ts';

function answer(status: number, errorType: string | undefined, message: string): UpstreamErrorAnswer {
  return { status, retryAfter: null, contentType: 'application/json', body: JSON.stringify({ message }), ...(errorType ? { errorType } : {}) };
}

describe("Bedrock's error types", () => {
  it.each([
    ['ThrottlingException', 429, 429, 'rate-limit'],
    ['ServiceQuotaExceededException', 400, 429, 'rate-limit'],
    ['ModelNotReadyException', 429, 503, 'overloaded'],
    ['ServiceUnavailableException', 503, 503, 'overloaded'],
    ['ModelTimeoutException', 408, 504, 'timeout'],
    ['ModelErrorException', 424, 502, 'server'],
    ['AccessDeniedException', 403, 403, 'permission'],
    ['ValidationException', 400, 400, 'invalid-request'],
    ['ResourceNotFoundException', 404, 503, 'server'],
  ] as const)('reads %s (HTTP %i) as HTTP %i, %s', (type, sent, meant, words) => {
    const interpreted = interpretBedrockErrorAnswer(answer(sent, `${type}:http://internal.amazon.com/coral/com.amazon.bedrock/`, 'It failed.'));

    expect(interpreted.status).toBe(meant);
    const message = meant === 403 ? expect.stringContaining("refused the gateway's AWS credentials") : 'It failed.';
    expect(readBedrockErrorWords(interpreted)).toEqual({ type: words, message, code: type });
  });

  it('quotes the status Bedrock sent in the failure message, not the one its error type means', () => {
    const interpreted = interpretBedrockErrorAnswer(answer(408, 'ModelTimeoutException', 'Model has timed out in processing the request.'));
    expect(interpreted.status).toBe(504);
    expect(upstreamAnswerToGatewayError(interpreted, 'bedrock', 'aws').message).toBe('Provider "bedrock" failed with HTTP 408: Model has timed out in processing the request.');
  });

  it('knows a full context window by the validation message Bedrock gives it', () => {
    expect(readBedrockErrorWords(answer(400, 'ValidationException', 'Input is too long for requested model.')).contextWindowExceeded).toBe(true);
    expect(readBedrockErrorWords(answer(400, 'ValidationException', 'prompt is too long: 208310 tokens > 200000 maximum')).contextWindowExceeded).toBe(true);
    expect(readBedrockErrorWords(answer(400, 'ValidationException', 'messages: text content blocks must be non-empty')).contextWindowExceeded).toBeUndefined();
  });

  it('moves on to the next target for throttling, a model not ready, a time-out and a model error, not for validation', () => {
    const failover = (type: string, status: number) => isGatewaySideUpstreamStatus(interpretBedrockErrorAnswer(answer(status, type, 'x')).status);

    expect(failover('ThrottlingException', 429)).toBe(true);
    expect(failover('ModelNotReadyException', 429)).toBe(true);
    expect(failover('ModelTimeoutException', 408)).toBe(true);
    expect(failover('ModelErrorException', 424)).toBe(true);
    expect(failover('ValidationException', 400)).toBe(false);
  });

  it("names the error from the body's __type when the header is missing, and keeps an unknown type's status", () => {
    const fromBody: UpstreamErrorAnswer = { status: 400, retryAfter: null, contentType: 'application/json', body: '{"__type":"com.amazon.coral.service#ThrottlingException","message":"Slow down"}' };
    expect(interpretBedrockErrorAnswer(fromBody).status).toBe(429);
    expect(interpretBedrockErrorAnswer(answer(418, 'TeapotException', 'x')).status).toBe(418);
    expect(awsErrorName('modelStreamErrorException')).toBe('ModelStreamErrorException');
    expect(awsErrorName('com.amazonaws.sqs#QueueDoesNotExist')).toBe('QueueDoesNotExist');
    expect(awsErrorName('ThrottlingException:http://internal.amazon.com/coral/com.amazon.bedrock/')).toBe('ThrottlingException');
  });
});
