import {
  CreateSecretCommand,
  DeleteSecretCommand,
  GetSecretValueCommand,
  PutSecretValueCommand,
  ResourceExistsException,
  ResourceNotFoundException,
  SecretsManagerClient,
} from '@aws-sdk/client-secrets-manager';
import { mockClient, type AwsClientStub } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SecretsManagerProviderSecrets } from '../../../shared/adapters/aws/secrets-manager-provider-secrets.ts';

function notFound(): ResourceNotFoundException {
  return new ResourceNotFoundException({ message: "Secrets Manager can't find the specified secret.", $metadata: {} });
}

describe('SecretsManagerProviderSecrets', () => {
  let secretsManager: AwsClientStub<SecretsManagerClient>;
  let secrets: SecretsManagerProviderSecrets;

  beforeAll(() => {
    secretsManager = mockClient(SecretsManagerClient);
    secrets = new SecretsManagerProviderSecrets(new SecretsManagerClient({ region: 'us-east-1' }), 'model-gateway/');
  });
  afterEach(() => secretsManager.reset());
  afterAll(() => secretsManager.restore());

  it('reads the key from the secret <prefix><projectId>/<provider>', async () => {
    secretsManager.on(GetSecretValueCommand).resolves({ SecretString: JSON.stringify({ apiKey: 'sk-project-openai' }) });

    await expect(secrets.getApiKey('alpha', 'openai')).resolves.toBe('sk-project-openai');

    const calls = secretsManager.commandCalls(GetSecretValueCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.args[0].input).toEqual({ SecretId: 'model-gateway/alpha/openai' });
  });

  it('answers undefined when the secret does not exist (ResourceNotFoundException)', async () => {
    secretsManager.on(GetSecretValueCommand).rejects(notFound());

    await expect(secrets.getApiKey('alpha', 'anthropic')).resolves.toBeUndefined();
  });

  it('answers undefined when the secret has no string value', async () => {
    secretsManager.on(GetSecretValueCommand).resolves({});

    await expect(secrets.getApiKey('alpha', 'openai')).resolves.toBeUndefined();
  });

  it('rejects a secret whose value is not {"apiKey": …}', async () => {
    secretsManager.on(GetSecretValueCommand).resolves({ SecretString: JSON.stringify({ key: 'sk-wrong-shape' }) });

    await expect(secrets.getApiKey('alpha', 'openai')).rejects.toThrow();
  });

  it('propagates other failures of reading a secret', async () => {
    secretsManager.on(GetSecretValueCommand).rejects(new Error('AccessDeniedException'));

    await expect(secrets.getApiKey('alpha', 'openai')).rejects.toThrow('AccessDeniedException');
  });

  it('stores a new value of an existing secret as {"apiKey": …}', async () => {
    secretsManager.on(PutSecretValueCommand).resolves({});

    await secrets.putApiKey('alpha', 'openai', 'sk-rotated');

    const calls = secretsManager.commandCalls(PutSecretValueCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.args[0].input).toEqual({ SecretId: 'model-gateway/alpha/openai', SecretString: '{"apiKey":"sk-rotated"}' });
    expect(secretsManager.commandCalls(CreateSecretCommand)).toHaveLength(0);
  });

  it('creates the secret when it does not exist yet', async () => {
    secretsManager.on(PutSecretValueCommand).rejects(notFound());
    secretsManager.on(CreateSecretCommand).resolves({});

    await secrets.putApiKey('beta', 'anthropic', 'sk-ant-first');

    const calls = secretsManager.commandCalls(CreateSecretCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.args[0].input).toEqual({
      Name: 'model-gateway/beta/anthropic',
      SecretString: '{"apiKey":"sk-ant-first"}',
      Description: 'Model gateway: anthropic API key of project beta',
    });
  });

  it('propagates other failures of storing a key, without creating a secret', async () => {
    secretsManager.on(PutSecretValueCommand).rejects(new Error('ThrottlingException'));

    await expect(secrets.putApiKey('alpha', 'openai', 'sk-x')).rejects.toThrow('ThrottlingException');
    expect(secretsManager.commandCalls(CreateSecretCommand)).toHaveLength(0);
  });

  it('propagates a failure of creating the secret', async () => {
    secretsManager.on(PutSecretValueCommand).rejects(notFound());
    secretsManager.on(CreateSecretCommand).rejects(new Error('LimitExceededException'));

    await expect(secrets.putApiKey('alpha', 'openai', 'sk-x')).rejects.toThrow('LimitExceededException');
  });

  it('never puts the key into the secret description', async () => {
    secretsManager.on(PutSecretValueCommand).rejects(notFound());
    secretsManager.on(CreateSecretCommand).resolves({});

    await secrets.putApiKey('alpha', 'openai', 'sk-do-not-describe-me');

    expect(secretsManager.commandCalls(CreateSecretCommand)[0]?.args[0].input.Description).not.toContain('sk-do-not-describe-me');
  });

  it('deletes the secret at once, without a recovery window that would keep its name taken', async () => {
    secretsManager.on(DeleteSecretCommand).resolves({});

    await secrets.deleteApiKey('alpha', 'openai');

    expect(secretsManager.commandCalls(DeleteSecretCommand)[0]?.args[0].input).toEqual({
      SecretId: 'model-gateway/alpha/openai',
      ForceDeleteWithoutRecovery: true,
    });
  });

  it('deletes a secret that does not exist without complaint, and propagates other failures', async () => {
    secretsManager.on(DeleteSecretCommand).rejectsOnce(notFound()).rejectsOnce(new Error('AccessDeniedException'));

    await expect(secrets.deleteApiKey('alpha', 'openai')).resolves.toBeUndefined();
    await expect(secrets.deleteApiKey('alpha', 'openai')).rejects.toThrow('AccessDeniedException');
  });
});

describe('SecretsManagerProviderSecrets when two admins create the same secret at once', () => {
  it('stores the value as a new version when the create loses the race', async () => {
    const raced = mockClient(SecretsManagerClient);
    raced
      .on(PutSecretValueCommand)
      .rejectsOnce(new ResourceNotFoundException({ message: 'not found', $metadata: {} }))
      .resolves({});
    raced.on(CreateSecretCommand).rejects(new ResourceExistsException({ message: 'exists', $metadata: {} }));
    const secrets = new SecretsManagerProviderSecrets(new SecretsManagerClient({ region: 'us-east-1' }), 'p/');

    await secrets.putApiKey('acme', 'openai', 'sk-raced-key');

    expect(raced.commandCalls(PutSecretValueCommand)).toHaveLength(2);
    expect(raced.commandCalls(PutSecretValueCommand)[1]?.args[0].input).toEqual({ SecretId: 'p/acme/openai', SecretString: '{"apiKey":"sk-raced-key"}' });
    raced.restore();
  });
});
