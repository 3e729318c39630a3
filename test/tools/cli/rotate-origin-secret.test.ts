import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PutSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newOriginSecretValue, ROTATE_ORIGIN_SECRET_USAGE, runRotateOriginSecret } from '../../../tools/cli/rotate-origin-secret.ts';

const SECRET_ARN = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:OriginSecret-AbCdEf';
const VERSION_ID = '0e7f2c4a-5b6d-4e8f-9a1b-2c3d4e5f6a7b';
const secretsManager = mockClient(SecretsManagerClient);
const settingsDirectory = mkdtempSync(join(tmpdir(), 'rotate-settings-'));

/** Runs the command on the test's settings directory; what it printed, line by line. */
async function rotate(...argv: string[]) {
  const printed = { out: [] as string[], err: [] as string[] };
  const code = await runRotateOriginSecret(argv, { log: (text) => printed.out.push(text), error: (text) => printed.err.push(text) }, settingsDirectory);
  return { code, stdout: printed.out.join('\n'), stderr: printed.err.join('\n') };
}

const puts = () => secretsManager.commandCalls(PutSecretValueCommand);

beforeEach(() => {
  secretsManager.on(PutSecretValueCommand).resolves({ VersionId: VERSION_ID });
  writeFileSync(join(settingsDirectory, 'default.json'), '{}\n');
  writeFileSync(join(settingsDirectory, 'prod.json'), JSON.stringify({ stackName: 'ModelGateway' }));
});
afterEach(() => secretsManager.reset());
afterAll(() => {
  secretsManager.restore();
  rmSync(settingsDirectory, { recursive: true, force: true });
});

describe('npm run rotate-origin-secret', () => {
  it("stores the new value, then writes its version to the env's settings file", async () => {
    const result = await rotate('--secret-arn', SECRET_ARN, '--env', 'prod');
    expect(result.code).toBe(0);
    expect(puts()).toHaveLength(1);
    expect(puts()[0]?.args[0].input).toMatchObject({ SecretId: SECRET_ARN, SecretString: expect.stringMatching(/^[A-Za-z0-9]{48}$/) });
    expect(JSON.parse(readFileSync(join(settingsDirectory, 'prod.json'), 'utf8'))).toEqual({ stackName: 'ModelGateway', originSecretVersion: VERSION_ID });
    expect(result.stdout).toContain('npx cdk deploy -c env=prod');
  });

  it('stores no new value when the env has no settings file, and says which file and which envs there are, in one line', async () => {
    const result = await rotate('--secret-arn', SECRET_ARN, '--env', 'staging');
    expect(result.code).toBe(2);
    expect(puts()).toHaveLength(0);
    expect(result.stderr).toBe(
      `error: No deploy settings for env "staging": ${join(settingsDirectory, 'staging.json')} does not exist (envs: default, prod); create it to add one (see docs/deploy.md); nothing was changed`,
    );
  });

  it("stores no new value when the env's settings file is invalid or the env name is", async () => {
    writeFileSync(join(settingsDirectory, 'prod.json'), JSON.stringify({ stackName: 'ModelGateway', domainName: 'typo' }));
    const invalid = await rotate('--secret-arn', SECRET_ARN, '--env', 'prod');
    expect(invalid).toMatchObject({ code: 2, stderr: expect.stringMatching(/^error: Invalid deploy settings in .*prod\.json: .*nothing was changed$/) });
    writeFileSync(join(settingsDirectory, 'prod.json'), '{ not json');
    expect(await rotate('--secret-arn', SECRET_ARN, '--env', 'prod')).toMatchObject({ code: 2, stderr: expect.stringMatching(/prod\.json: not JSON/) });
    expect(await rotate('--secret-arn', SECRET_ARN, '--env', '../prod')).toMatchObject({ code: 2, stderr: expect.stringMatching(/env must be a lower-case name/) });
    expect(puts()).toHaveLength(0);
  });

  it('prints its help with -h or --help and exits 0, sending nothing', async () => {
    for (const flag of ['-h', '--help']) {
      expect(await rotate(flag)).toEqual({ code: 0, stdout: ROTATE_ORIGIN_SECRET_USAGE, stderr: '' });
    }
    expect(puts()).toHaveLength(0);
  });

  it('refuses a command line without the secret or with an unknown option (exit code 2), sending nothing', async () => {
    expect(await rotate('--env', 'prod')).toMatchObject({ code: 2, stderr: expect.stringMatching(/^error: --secret-arn is required/) });
    expect(await rotate('--secret-arn', SECRET_ARN, '--force')).toMatchObject({ code: 2, stderr: expect.stringMatching(/^error: Unknown option '--force'/) });
    expect(puts()).toHaveLength(0);
  });
});

describe('newOriginSecretValue', () => {
  it('draws 48 letters and digits, a new value each time', () => {
    const values = new Set(Array.from({ length: 20 }, () => newOriginSecretValue()));
    expect(values.size).toBe(20);
    for (const value of values) expect(value).toMatch(/^[A-Za-z0-9]{48}$/);
  });

  it('skips the bytes that would bias the alphabet (248–255)', () => {
    let call = 0;
    const value = newOriginSecretValue((size) => new Uint8Array(size).fill(call++ === 0 ? 255 : 1));
    expect(value).toBe('B'.repeat(48));
  });
});
