import { randomUUID } from 'node:crypto';
import { AwsServiceError, startAwsJsonService, type AwsJsonService } from './aws-json-service.ts';
import { checkSigV4, type SigV4Expectation } from './sigv4-check.ts';

interface SecretVersion {
  versionId: string;
  value: string;
  /** Seconds since the epoch, as the JSON protocol gives times. */
  createdDate: number;
}

interface StoredSecret {
  arn: string;
  current: SecretVersion;
  previous?: SecretVersion;
}

export interface SecretsManagerCall {
  operation: string;
  input: Record<string, unknown>;
}

export interface FakeSecretsManager extends AwsJsonService {
  /** Every call that reached an operation, in order (each one a Secrets Manager call IAM authorized). */
  readonly calls: SecretsManagerCall[];
  /** Stores a secret under an id (name or ARN) as the function's code will ask for it; the value before becomes AWSPREVIOUS. */
  put(secretId: string, value: string): void;
  /** The current value of a secret, as the admin function stored it. */
  valueOf(secretId: string): string | undefined;
  /** The next `count` calls of `operation` are refused with this error (status 400 unless given). */
  refuseNext(operation: string, type: string, count?: number, status?: number): void;
}

export interface FakeSecretsManagerOptions {
  region?: string;
  account?: string;
  /** When given, every call must be signed for `secretsmanager` in the region with one of these credentials (400 otherwise, as AWS answers). */
  signedWith?: SigV4Expectation['credentials'];
  /** What GetSecretValue answers for a secret the fake does not hold (not found unless given). */
  unstoredValue?: (secretId: string) => string | undefined;
}

/**
 * Secrets Manager's JSON 1.1 protocol on loopback, with what the gateway sends: CreateSecret, PutSecretValue
 * (the previous version becomes AWSPREVIOUS), GetSecretValue (AWSCURRENT or AWSPREVIOUS), DeleteSecret.
 * Secrets are found by the id they were created or put under, name or ARN alike.
 */
export async function startFakeSecretsManager(options: FakeSecretsManagerOptions = {}): Promise<FakeSecretsManager> {
  const region = options.region ?? 'us-east-1';
  const account = options.account ?? '123456789012';
  const secrets = new Map<string, StoredSecret>();
  const calls: SecretsManagerCall[] = [];
  const scripted: Array<{ operation: string; type: string; status: number }> = [];
  const version = (value: string) => ({ versionId: randomUUID(), value, createdDate: Date.now() / 1000 });
  const arnOf = (id: string) => (id.startsWith('arn:') ? id : `arn:aws:secretsmanager:${region}:${account}:secret:${id}-AbCdEf`);
  const find = (id: unknown) => {
    const secret = secrets.get(String(id));
    if (!secret) throw new AwsServiceError('ResourceNotFoundException', "Secrets Manager can't find the specified secret.");
    return secret;
  };
  const put = (id: string, value: string) => {
    const existing = secrets.get(id);
    if (existing) secrets.set(id, { ...existing, previous: existing.current, current: version(value) });
    else secrets.set(id, { arn: arnOf(id), current: version(value) });
    return secrets.get(id) as StoredSecret;
  };
  /** Each call is kept, then refused if the test scripted a refusal of its operation. */
  const called = (operation: string, input: Record<string, unknown>) => {
    calls.push({ operation, input });
    const index = scripted.findIndex((refusal) => refusal.operation === operation);
    const refusal = index >= 0 ? scripted.splice(index, 1)[0] : undefined;
    if (refusal) throw new AwsServiceError(refusal.type, `refused by the test (${refusal.type})`, refusal.status);
  };
  const signedWith = options.signedWith;
  const service = await startAwsJsonService({
    targetPrefix: 'secretsmanager',
    contentType: 'application/x-amz-json-1.1',
    ...(signedWith
      ? {
          async authorize(request, body) {
            const verdict = await checkSigV4(request, body, { service: 'secretsmanager', region, credentials: signedWith });
            return 'refusal' in verdict ? { status: 400, ...verdict.refusal } : undefined;
          },
        }
      : {}),
    operations: {
      CreateSecret(input) {
        called('CreateSecret', input);
        const name = String(input.Name);
        if (secrets.has(name)) throw new AwsServiceError('ResourceExistsException', `The operation failed because the secret ${name} already exists.`);
        const secret = put(name, String(input.SecretString));
        return { ARN: secret.arn, Name: name, VersionId: secret.current.versionId };
      },
      PutSecretValue(input) {
        called('PutSecretValue', input);
        find(input.SecretId);
        const secret = put(String(input.SecretId), String(input.SecretString));
        return { ARN: secret.arn, Name: String(input.SecretId), VersionId: secret.current.versionId, VersionStages: ['AWSCURRENT'] };
      },
      GetSecretValue(input) {
        called('GetSecretValue', input);
        const unstored = secrets.has(String(input.SecretId)) || input.VersionStage !== undefined ? undefined : options.unstoredValue?.(String(input.SecretId));
        if (unstored !== undefined) return { ARN: arnOf(String(input.SecretId)), Name: String(input.SecretId), SecretString: unstored, CreatedDate: Date.now() / 1000 };
        const secret = find(input.SecretId);
        const stage = String(input.VersionStage ?? 'AWSCURRENT');
        const chosen = stage === 'AWSPREVIOUS' ? secret.previous : secret.current;
        if (!chosen) throw new AwsServiceError('ResourceNotFoundException', `Secrets Manager can't find the specified secret value for staging label: ${stage}`);
        return { ARN: secret.arn, Name: String(input.SecretId), VersionId: chosen.versionId, SecretString: chosen.value, VersionStages: [stage], CreatedDate: chosen.createdDate };
      },
      DeleteSecret(input) {
        called('DeleteSecret', input);
        const secret = find(input.SecretId);
        secrets.delete(String(input.SecretId));
        return { ARN: secret.arn, Name: String(input.SecretId), DeletionDate: Date.now() / 1000 };
      },
    },
  });
  return {
    ...service,
    calls,
    put: (id, value) => void put(id, value),
    valueOf: (id) => secrets.get(id)?.current.value,
    refuseNext(operation, type, count = 1, status = 400) {
      for (let index = 0; index < count; index += 1) scripted.push({ operation, type, status });
    },
  };
}
