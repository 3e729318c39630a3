import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SecretsManagerProviderSecrets } from '../../../shared/adapters/aws/secrets-manager-provider-secrets.ts';
import { AwsJsonService } from '../../../shared/transport/aws-json-service.ts';
import { createNodeHttpFetch } from '../../../shared/transport/node-http-fetch.ts';
import { startFakeSecretsManager, type FakeSecretsManager } from '../../support/fake-secrets-manager.ts';

const ROLE = { accessKeyId: 'AKIDSECRETSROLE00001', secretAccessKey: 'secrets-role-secret-0123456789', sessionToken: 'secrets-role-session' };

let fake: FakeSecretsManager;
let secrets: SecretsManagerProviderSecrets;

/** Secrets Manager as the gateway calls it: signed JSON calls, no wait between tries. */
function secretsManagerAt(endpoint: string): AwsJsonService {
  const fetch = createNodeHttpFetch({ allowPrivateAddresses: true });
  return new AwsJsonService({ signingName: 'secretsmanager', targetPrefix: 'secretsmanager', jsonVersion: '1.1', region: 'us-east-1', endpoint, credentials: async () => ROLE, fetch, timing: { sleep: async () => undefined } });
}

beforeAll(async () => {
  fake = await startFakeSecretsManager({ signedWith: { [ROLE.accessKeyId]: { secretAccessKey: ROLE.secretAccessKey, sessionToken: ROLE.sessionToken } } });
  secrets = new SecretsManagerProviderSecrets(secretsManagerAt(fake.endpoint), 'model-gateway/');
});
beforeEach(() => {
  fake.calls.length = 0;
});
afterAll(() => fake.close());

describe('SecretsManagerProviderSecrets', () => {
  it('reads the key from the secret <prefix><projectId>/<provider>, in a signed GetSecretValue', async () => {
    fake.put('model-gateway/alpha/openai', JSON.stringify({ apiKey: 'sk-project-openai' }));

    await expect(secrets.getApiKey('alpha', 'openai')).resolves.toBe('sk-project-openai');

    expect(fake.calls).toEqual([{ operation: 'GetSecretValue', input: { SecretId: 'model-gateway/alpha/openai' } }]);
  });

  it('answers undefined when the secret does not exist (ResourceNotFoundException)', async () => {
    await expect(secrets.getApiKey('alpha', 'anthropic')).resolves.toBeUndefined();
  });

  it('answers undefined when the secret has no string value', async () => {
    fake.put('model-gateway/alpha/empty', '');

    await expect(secrets.getApiKey('alpha', 'empty')).resolves.toBeUndefined();
  });

  it('rejects a secret whose value is not {"apiKey": …}', async () => {
    fake.put('model-gateway/alpha/wrong', JSON.stringify({ key: 'sk-wrong-shape' }));

    await expect(secrets.getApiKey('alpha', 'wrong')).rejects.toThrow();
  });

  it('propagates other failures of reading a secret, named by their type', async () => {
    fake.refuseNext('GetSecretValue', 'AccessDeniedException');

    await expect(secrets.getApiKey('alpha', 'openai')).rejects.toMatchObject({ name: 'AccessDeniedException' });
  });

  it('is refused when its signature is wrong', async () => {
    const forged = new SecretsManagerProviderSecrets(
      new AwsJsonService({ signingName: 'secretsmanager', targetPrefix: 'secretsmanager', jsonVersion: '1.1', region: 'us-east-1', endpoint: fake.endpoint, credentials: async () => ({ ...ROLE, secretAccessKey: 'not-the-secret' }), fetch: createNodeHttpFetch({ allowPrivateAddresses: true }) }),
      'model-gateway/',
    );

    await expect(forged.getApiKey('alpha', 'openai')).rejects.toThrow(/InvalidSignatureException/);
    expect(fake.calls).toHaveLength(0);
  });

  it('stores a new value of an existing secret as {"apiKey": …}', async () => {
    fake.put('model-gateway/alpha/rotated', JSON.stringify({ apiKey: 'sk-old' }));

    await secrets.putApiKey('alpha', 'rotated', 'sk-rotated');

    expect(fake.calls).toEqual([{ operation: 'PutSecretValue', input: { SecretId: 'model-gateway/alpha/rotated', SecretString: '{"apiKey":"sk-rotated"}' } }]);
    expect(fake.valueOf('model-gateway/alpha/rotated')).toBe('{"apiKey":"sk-rotated"}');
  });

  it('creates the secret when it does not exist yet, with a description that never holds the key', async () => {
    await secrets.putApiKey('beta', 'anthropic', 'sk-ant-first');

    expect(fake.calls.map((call) => call.operation)).toEqual(['PutSecretValue', 'CreateSecret']);
    expect(fake.calls[1]?.input).toEqual({
      Name: 'model-gateway/beta/anthropic',
      SecretString: '{"apiKey":"sk-ant-first"}',
      Description: 'Model gateway: anthropic API key of project beta',
    });
    expect(fake.valueOf('model-gateway/beta/anthropic')).toBe('{"apiKey":"sk-ant-first"}');
  });

  it('propagates other failures of storing a key, without creating a secret', async () => {
    fake.refuseNext('PutSecretValue', 'AccessDeniedException');

    await expect(secrets.putApiKey('alpha', 'denied', 'sk-x')).rejects.toMatchObject({ name: 'AccessDeniedException' });
    expect(fake.calls.map((call) => call.operation)).toEqual(['PutSecretValue']);
  });

  it('propagates a failure of creating the secret', async () => {
    fake.refuseNext('CreateSecret', 'LimitExceededException');

    await expect(secrets.putApiKey('alpha', 'limited', 'sk-x')).rejects.toMatchObject({ name: 'LimitExceededException' });
  });

  it('deletes the secret at once, without a recovery window that would keep its name taken', async () => {
    fake.put('model-gateway/alpha/deleted', JSON.stringify({ apiKey: 'sk-gone' }));

    await secrets.deleteApiKey('alpha', 'deleted');

    expect(fake.calls).toEqual([{ operation: 'DeleteSecret', input: { SecretId: 'model-gateway/alpha/deleted', ForceDeleteWithoutRecovery: true } }]);
    expect(fake.valueOf('model-gateway/alpha/deleted')).toBeUndefined();
  });

  it('deletes a secret that does not exist without complaint, and propagates other failures', async () => {
    await expect(secrets.deleteApiKey('alpha', 'never-stored')).resolves.toBeUndefined();
    fake.refuseNext('DeleteSecret', 'AccessDeniedException');
    await expect(secrets.deleteApiKey('alpha', 'never-stored')).rejects.toMatchObject({ name: 'AccessDeniedException' });
  });
});

describe('SecretsManagerProviderSecrets when two admins create the same secret at once', () => {
  it('stores the value as a new version when the create loses the race', async () => {
    // The other admin's create lands between this one's put (not found) and create (exists).
    fake.refuseNext('PutSecretValue', 'ResourceNotFoundException');
    fake.put('p/acme/openai', JSON.stringify({ apiKey: 'sk-other-admin' }));
    const raced = new SecretsManagerProviderSecrets(secretsManagerAt(fake.endpoint), 'p/');

    await raced.putApiKey('acme', 'openai', 'sk-raced-key');

    expect(fake.calls.map((call) => call.operation)).toEqual(['PutSecretValue', 'CreateSecret', 'PutSecretValue']);
    expect(fake.valueOf('p/acme/openai')).toBe('{"apiKey":"sk-raced-key"}');
  });
});
