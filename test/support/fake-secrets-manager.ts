import { randomUUID } from 'node:crypto';
import { AwsServiceError, startAwsJsonService, type AwsJsonService } from './aws-json-service.ts';

interface StoredSecret {
  arn: string;
  current: { versionId: string; value: string; createdDate: number };
  previous?: { versionId: string; value: string; createdDate: number };
}

export interface FakeSecretsManager extends AwsJsonService {
  /** Stores a secret under an id (name or ARN) as the function's code will ask for it. */
  put(secretId: string, value: string): void;
  /** The current value of a secret, as the admin function stored it. */
  valueOf(secretId: string): string | undefined;
}

/**
 * Secrets Manager's JSON 1.1 protocol on loopback, with what the gateway sends: CreateSecret, PutSecretValue
 * (the previous version becomes AWSPREVIOUS), GetSecretValue (AWSCURRENT or AWSPREVIOUS), DeleteSecret.
 * Secrets are found by the id they were created or put under, name or ARN alike.
 */
export async function startFakeSecretsManager(region = 'us-east-1', account = '123456789012'): Promise<FakeSecretsManager> {
  const secrets = new Map<string, StoredSecret>();
  const version = (value: string) => ({ versionId: randomUUID(), value, createdDate: Date.now() / 1000 });
  const find = (id: unknown) => {
    const secret = secrets.get(String(id));
    if (!secret) throw new AwsServiceError('ResourceNotFoundException', "Secrets Manager can't find the specified secret.");
    return secret;
  };
  const put = (id: string, value: string) => {
    const existing = secrets.get(id);
    if (existing) secrets.set(id, { ...existing, previous: existing.current, current: version(value) });
    else secrets.set(id, { arn: id.startsWith('arn:') ? id : `arn:aws:secretsmanager:${region}:${account}:secret:${id}-AbCdEf`, current: version(value) });
    return secrets.get(id) as StoredSecret;
  };
  const service = await startAwsJsonService({
    targetPrefix: 'secretsmanager',
    contentType: 'application/x-amz-json-1.1',
    operations: {
      CreateSecret(input) {
        const name = String(input.Name);
        if (secrets.has(name)) throw new AwsServiceError('ResourceExistsException', `The operation failed because the secret ${name} already exists.`);
        const secret = put(name, String(input.SecretString));
        return { ARN: secret.arn, Name: name, VersionId: secret.current.versionId };
      },
      PutSecretValue(input) {
        find(input.SecretId);
        const secret = put(String(input.SecretId), String(input.SecretString));
        return { ARN: secret.arn, Name: String(input.SecretId), VersionId: secret.current.versionId, VersionStages: ['AWSCURRENT'] };
      },
      GetSecretValue(input) {
        const secret = find(input.SecretId);
        const stage = String(input.VersionStage ?? 'AWSCURRENT');
        const chosen = stage === 'AWSPREVIOUS' ? secret.previous : secret.current;
        if (!chosen) throw new AwsServiceError('ResourceNotFoundException', `Secrets Manager can't find the specified secret value for staging label: ${stage}`);
        return { ARN: secret.arn, Name: String(input.SecretId), VersionId: chosen.versionId, SecretString: chosen.value, VersionStages: [stage], CreatedDate: chosen.createdDate };
      },
      DeleteSecret(input) {
        const secret = find(input.SecretId);
        secrets.delete(String(input.SecretId));
        return { ARN: secret.arn, Name: String(input.SecretId), DeletionDate: Date.now() / 1000 };
      },
    },
  });
  return { ...service, put: (id, value) => void put(id, value), valueOf: (id) => secrets.get(id)?.current.value };
}
