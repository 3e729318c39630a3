import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadRuntimeConfig } from '../../shared/config/runtime-config.ts';
import { jsonResponse } from '../../shared/http/gateway-http.ts';
import { ORIGIN_SECRET_HEADER } from '../../shared/lambda/origin-secret.ts';
import { renderOpenAiError } from '../../shared/protocols/openai-chat/openai-errors.ts';
import type { GatewayServices } from '../../shared/pipeline/gateway-services.ts';
import { createRouteGroupFunction, UPSTREAM_EVENT_DROPPED, UPSTREAM_FAILED } from '../../shared/wiring/route-group-function.ts';
import { GatewayError } from '../../shared/core/errors.ts';
import type { ErrorReporter } from '../../shared/pipeline/route-group.ts';
import { startFakeSecretsManager, type FakeSecretsManager } from '../support/fake-secrets-manager.ts';

const SECRET_ARN = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:OriginSecret-AbCdEf';
const SECRET = 'q8W2e4R6t8Y0u2I4o6P8a0S2d4F6g8H0';
const ROLE = { accessKeyId: 'AKIDROUTEGROUPROLE01', secretAccessKey: 'route-group-role-secret-0123456789' };
let secretsManager: FakeSecretsManager;
beforeAll(async () => {
  secretsManager = await startFakeSecretsManager({ signedWith: { [ROLE.accessKeyId]: { secretAccessKey: ROLE.secretAccessKey } } });
});
beforeEach(() => {
  secretsManager.calls.length = 0;
});
afterAll(() => secretsManager.close());

function event(headers: Record<string, string>): APIGatewayProxyEventV2 {
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath: '/v1/models',
    rawQueryString: '',
    headers,
    requestContext: {
      accountId: 'anonymous',
      apiId: 'abc123',
      domainName: 'abc123.lambda-url.us-east-1.on.aws',
      domainPrefix: 'abc123',
      http: { method: 'GET', path: '/v1/models', protocol: 'HTTP/1.1', sourceIp: '203.0.113.9', userAgent: 'curl/8' },
      requestId: 'req-1',
      routeKey: '$default',
      stage: '$default',
      time: '01/Jan/2026:00:00:00 +0000',
      timeEpoch: 1_767_225_600_000,
    },
    isBase64Encoded: false,
  };
}

function routeGroupFunction(environment: Record<string, string>) {
  const routeGroup = vi.fn(async () => jsonResponse(200, { object: 'list', data: [] }));
  const config = loadRuntimeConfig({ GATEWAY_USAGE_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/123456789012/usage', AWS_ENDPOINT_URL_SECRETS_MANAGER: secretsManager.endpoint, ...environment });
  const awsCredentials = { credentials: async () => ROLE };
  const serve = createRouteGroupFunction(config, { serviceName: 'gateway-test', createRouteGroup: () => routeGroup, renderError: renderOpenAiError }, { awsCredentials });
  return { serve, routeGroup };
}

describe('createRouteGroupFunction behind CloudFront', () => {
  it('reads the origin secret\'s current and previous values once from Secrets Manager and refuses requests without it with 403', async () => {
    // Never rotated: the secret has no AWSPREVIOUS version.
    secretsManager.put(SECRET_ARN, SECRET);
    const { serve, routeGroup } = routeGroupFunction({ GATEWAY_ORIGIN_SECRET_ARN: SECRET_ARN });

    const refused = await serve(event({ authorization: 'Bearer gw.key' }));
    expect(refused.statusCode).toBe(403);
    expect(JSON.parse(refused.body as string)).toMatchObject({ error: { type: 'permission_error', code: 'origin_not_allowed' } });
    expect(refused.headers).toMatchObject({ 'access-control-allow-origin': '*' });
    expect(routeGroup).not.toHaveBeenCalled();

    const served = await serve(event({ [ORIGIN_SECRET_HEADER]: SECRET, authorization: 'Bearer gw.key' }));
    expect(served.statusCode).toBe(200);
    expect(routeGroup).toHaveBeenCalledTimes(1);
    // One read of each stage at cold start; the previous value does not exist before a first rotation.
    expect(secretsManager.calls.map((call) => [call.operation, call.input.SecretId, call.input.VersionStage])).toEqual([
      ['GetSecretValue', SECRET_ARN, undefined],
      ['GetSecretValue', SECRET_ARN, 'AWSPREVIOUS'],
    ]);
  });

  it('checks nothing and reads no secret without GATEWAY_ORIGIN_SECRET_ARN (the local host)', async () => {
    const { serve, routeGroup } = routeGroupFunction({});
    expect((await serve(event({}))).statusCode).toBe(200);
    expect(routeGroup).toHaveBeenCalledTimes(1);
    expect(secretsManager.calls).toHaveLength(0);
  });
});

describe('createRouteGroupFunction logs', () => {
  it('an upstream event dropped for its broken JSON, with where it came from, at warning level', () => {
    let services: GatewayServices | undefined;
    const config = loadRuntimeConfig({ GATEWAY_USAGE_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/123456789012/usage' });
    createRouteGroupFunction(config, { serviceName: 'gateway-test', createRouteGroup: (given) => ((services = given), async () => jsonResponse(200, {})), renderError: renderOpenAiError });
    const written = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      services?.reportMalformedUpstreamEvent({ requestId: 'gen-1', provider: 'openai', model: 'openai/gpt-4o-mini', dataLength: 9 });
      const lines = written.mock.calls.map(([chunk]) => JSON.parse(String(chunk)) as Record<string, unknown>);
      expect(lines).toEqual([expect.objectContaining({ level: 'WARN', message: UPSTREAM_EVENT_DROPPED, requestId: 'gen-1', provider: 'openai', model: 'openai/gpt-4o-mini', dataLength: 9 })]);
    } finally {
      written.mockRestore();
    }
  });

  function reporterWithLines() {
    let reportError: ErrorReporter | undefined;
    const config = loadRuntimeConfig({ GATEWAY_USAGE_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/123456789012/usage' });
    createRouteGroupFunction(config, { serviceName: 'gateway-test', createRouteGroup: (_services, given) => ((reportError = given), async () => jsonResponse(200, {})), renderError: renderOpenAiError });
    const written = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const report = (error: GatewayError) => {
      try {
        reportError?.(error, 'gen-1');
        return written.mock.calls.map(([chunk]) => JSON.parse(String(chunk)) as Record<string, unknown>);
      } finally {
        written.mockRestore();
      }
    };
    return report;
  }

  it('a provider that failed as a warning naming its error, without the gateway\'s stack', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });
    // After failover the error wraps the last attempt's, which wraps the socket's.
    const attempt = new GatewayError('upstream', 'Could not reach provider "openai": ECONNREFUSED.', { code: 'upstream_unreachable', cause: refused });
    const lines = reporterWithLines()(new GatewayError('upstream', attempt.message, { code: attempt.code, cause: attempt }));
    expect(lines).toEqual([
      expect.objectContaining({ level: 'WARN', message: UPSTREAM_FAILED, requestId: 'gen-1', code: 'upstream_unreachable', status: 502, summary: 'Could not reach provider "openai"', cause: 'Error: connect ECONNREFUSED 127.0.0.1:1' }),
    ]);
    expect(JSON.stringify(lines)).not.toContain('stack');
  });

  it("a provider's failure without its words, which may quote the prompt", () => {
    const lines = reporterWithLines()(new GatewayError('upstream', 'Provider "openai" failed with HTTP 503: overloaded, you sent: MY-PRIVATE-PROMPT-42', { code: 'upstream_error' }));
    expect(lines).toEqual([expect.objectContaining({ level: 'WARN', message: UPSTREAM_FAILED, code: 'upstream_error', status: 502, summary: 'Provider "openai" failed with HTTP 503' })]);
    expect(JSON.stringify(lines)).not.toContain('MY-PRIVATE-PROMPT-42');
  });

  it("AWS's refusal of the gateway's credentials with AWS's words, which name the role and the model to grant", () => {
    const denied = 'User: arn:aws:sts::123456789012:assumed-role/gw-openai/fn is not authorized to perform: bedrock:InvokeModel on resource: arn:aws:bedrock:us-east-2::foundation-model/anthropic.claude-sonnet-4-5';
    const lines = reporterWithLines()(new GatewayError('upstream', 'Provider "bedrock" refused the gateway\'s AWS credentials (HTTP 403).', { code: 'provider_auth_failed', cause: denied }));
    expect(lines).toEqual([expect.objectContaining({ code: 'provider_auth_failed', summary: 'Provider "bedrock" refused the gateway\'s AWS credentials (HTTP 403).', cause: denied })]);
  });

  it('a failure of the gateway itself as an error with its stack', () => {
    const broken = new TypeError('Cannot read properties of undefined');
    const lines = reporterWithLines()(new GatewayError('internal', 'The gateway failed.', { code: 'internal_error', cause: broken }));
    expect(lines).toEqual([expect.objectContaining({ level: 'ERROR', message: 'request failed', requestId: 'gen-1', code: 'internal_error', status: 500 })]);
    expect(lines[0]?.error).toMatchObject({ name: 'TypeError', message: 'Cannot read properties of undefined', stack: expect.stringContaining('TypeError') });
  });
});
