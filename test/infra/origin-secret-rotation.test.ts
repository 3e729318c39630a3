import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PutSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadDeploySettings } from '../../infra/settings/deploy-settings.ts';
import { stackPropsFromSettings } from '../../infra/settings/stack-props-from-settings.ts';
import { loadRuntimeConfig } from '../../shared/config/runtime-config.ts';
import { jsonResponse } from '../../shared/http/gateway-http.ts';
import { ORIGIN_SECRET_HEADER, ORIGIN_SECRET_TIMING } from '../../shared/lambda/origin-secret.ts';
import { renderOpenAiError } from '../../shared/protocols/openai-chat/openai-errors.ts';
import { createRouteGroupFunction } from '../../shared/wiring/route-group-function.ts';
import { rotateOriginSecret } from '../../tools/cli/rotate-origin-secret.ts';
import { AwsServiceError, startAwsJsonService, type AwsJsonService } from '../support/aws-json-service.ts';
import { functionUrlEvent } from '../support/handler-invocation.ts';
import { SYNTHESIS_TIMEOUT_MS, synthesizeGateway, type SynthesizedGateway } from './synth-gateway.ts';

/** Secrets Manager's versions and staging labels for one secret, as PutSecretValue moves them. */
class SecretVersions {
  private readonly values = new Map<string, { value: string; createdAt: Date }>();
  private current = '';
  private previous: string | undefined;

  put(value: string): string {
    const versionId = randomUUID();
    this.values.set(versionId, { value, createdAt: new Date() });
    if (this.current) this.previous = this.current;
    this.current = versionId;
    return versionId;
  }

  get(input: { VersionId?: string; VersionStage?: string }) {
    const versionId = input.VersionId ?? (input.VersionStage === 'AWSPREVIOUS' ? this.previous : this.current);
    const version = versionId ? this.values.get(versionId) : undefined;
    if (!version) throw new AwsServiceError('ResourceNotFoundException', 'no such version');
    // The JSON protocol gives times in seconds since the epoch.
    return { SecretString: version.value, CreatedDate: version.createdAt.getTime() / 1000, VersionId: versionId };
  }
}

const SECRET_ARN = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:OriginSecret-AbCdEf';
/** The CLI writes through the SDK's client (mocked); the route group reads over Secrets Manager's JSON protocol (a loopback fake). */
const secretsManager = mockClient(SecretsManagerClient);
let secretsManagerReads: AwsJsonService;
const versions = new SecretVersions();
const settingsDirectory = mkdtempSync(join(tmpdir(), 'rotation-settings-'));
const settingsFile = join(settingsDirectory, 'prod.json');

/** What CloudFront sends: the header's dynamic reference, resolved as CloudFormation resolves it at deployment. */
function headerCloudFrontSends(gateway: SynthesizedGateway): string {
  // `{"Fn::Join": ["", ["{{resolve:secretsmanager:", {"Ref": …}, ":SecretString:::<versionId>}}"]]}`
  const reference = /:SecretString:::([^"}]*)\}\}/.exec(gateway.json);
  if (!reference) throw new Error('no origin secret reference in the template');
  const versionId = reference[1];
  return versions.get(versionId ? { VersionId: versionId } : {}).SecretString;
}

function routeGroup() {
  const served = vi.fn(async () => jsonResponse(200, { ok: true }));
  const config = loadRuntimeConfig({ GATEWAY_USAGE_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/123456789012/usage', GATEWAY_ORIGIN_SECRET_ARN: SECRET_ARN, AWS_ENDPOINT_URL_SECRETS_MANAGER: secretsManagerReads.endpoint });
  const awsCredentials = { credentials: async () => ({ accessKeyId: 'AKIDROUTEGROUPROLE01', secretAccessKey: 'route-group-role-secret' }) };
  const serve = createRouteGroupFunction(config, { serviceName: 'gateway-test', createRouteGroup: () => served, renderError: renderOpenAiError }, { awsCredentials });
  return async (secret: string) => (await serve(functionUrlEvent({ method: 'GET', path: '/v1/models', headers: { [ORIGIN_SECRET_HEADER]: secret } }) as APIGatewayProxyEventV2)).statusCode;
}

let firstDeployment: SynthesizedGateway;
beforeAll(async () => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2026-03-01T00:00:00Z'));
  secretsManagerReads = await startAwsJsonService({
    targetPrefix: 'secretsmanager',
    contentType: 'application/x-amz-json-1.1',
    operations: { GetSecretValue: (input) => versions.get(input as { VersionId?: string; VersionStage?: string }) },
  });
  secretsManager.on(PutSecretValueCommand).callsFake(async (input: { SecretString: string }) => ({ VersionId: versions.put(input.SecretString) }));
  // The stack's first deployment: Secrets Manager generates the value, CloudFront sends the current version.
  versions.put('generated-at-creation-0123456789abcdef');
  writeFileSync(settingsFile, JSON.stringify({ stackName: 'ModelGateway' }));
  firstDeployment = synthesizeGateway(stackPropsFromSettings(loadDeploySettings('prod', settingsDirectory)));
});
afterEach(() => secretsManager.resetHistory());
afterAll(async () => {
  vi.useRealTimers();
  secretsManager.restore();
  await secretsManagerReads.close();
  rmSync(settingsDirectory, { recursive: true, force: true });
});

describe('rotating the origin secret as docs/decisions/origin-secret.md says', () => {
  it('never refuses CloudFront, and refuses the old value once the grace period is over', async () => {
    const request = routeGroup();
    const oldValue = headerCloudFrontSends(firstDeployment);
    expect(await request(oldValue)).toBe(200);

    // 1. npm run rotate-origin-secret: a new value, its version written to the settings file.
    const put = async (value: string) => (await new SecretsManagerClient({}).send(new PutSecretValueCommand({ SecretId: SECRET_ARN, SecretString: value }))).VersionId ?? '';
    const { versionId } = await rotateOriginSecret(put, 'prod', settingsDirectory);
    expect(JSON.parse(readFileSync(settingsFile, 'utf8'))).toEqual({ stackName: 'ModelGateway', originSecretVersion: versionId });

    // Until the deployment, CloudFront still sends the old value: accepted (now the previous one).
    vi.advanceTimersByTime(ORIGIN_SECRET_TIMING.cacheTtlMs);
    expect(await request(oldValue)).toBe(200);

    // 2. cdk deploy: the template names the new version, so CloudFormation updates the distribution.
    const secondDeployment = synthesizeGateway(stackPropsFromSettings(loadDeploySettings('prod', settingsDirectory)));
    const newValue = headerCloudFrontSends(secondDeployment);
    expect(newValue).not.toBe(oldValue);
    expect(secondDeployment.json).toContain(`:SecretString:::${versionId}}}`);
    // Edges switch one by one: both values are accepted meanwhile.
    vi.advanceTimersByTime(ORIGIN_SECRET_TIMING.rereadAfterMismatchMs);
    expect(await request(newValue)).toBe(200);
    expect(await request(oldValue)).toBe(200);

    // 3. After the grace period only the new value opens the function.
    vi.advanceTimersByTime(ORIGIN_SECRET_TIMING.graceMs);
    expect(await request(oldValue)).toBe(403);
    expect(await request(newValue)).toBe(200);
  }, SYNTHESIS_TIMEOUT_MS);
});
