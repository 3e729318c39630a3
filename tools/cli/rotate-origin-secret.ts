import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { PutSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { SETTINGS_DIRECTORY } from '../../infra/settings/deploy-settings.ts';
import { runCli } from './run-cli.ts';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** 48 letters and digits from a CSPRNG, like the value the stack generates first (rejection sampling: no bias). */
export function newOriginSecretValue(random: (size: number) => Uint8Array = randomBytes): string {
  let value = '';
  while (value.length < 48) {
    for (const byte of random(64)) if (byte < 248 && value.length < 48) value += ALPHABET[byte % 62];
  }
  return value;
}

/** Stores a new value (it becomes AWSCURRENT, the old one AWSPREVIOUS) and returns its version id. */
export type PutOriginSecret = (value: string) => Promise<string>;

/**
 * Step 1 of a rotation (docs/decisions/origin-secret.md): a new value in Secrets Manager, and its version
 * in the environment's settings file, so that the next `cdk deploy` changes the distribution's header.
 */
export async function rotateOriginSecret(put: PutOriginSecret, settingsFile: string): Promise<string> {
  const versionId = await put(newOriginSecretValue());
  const settings = JSON.parse(readFileSync(settingsFile, 'utf8')) as Record<string, unknown>;
  writeFileSync(settingsFile, `${JSON.stringify({ ...settings, originSecretVersion: versionId }, null, 2)}\n`);
  return versionId;
}

async function main(argv: string[]): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { env: { type: 'string', default: 'default' }, 'secret-arn': { type: 'string' } }, strict: true });
  const secretArn = values['secret-arn'];
  if (!secretArn) {
    console.error('Usage: npm run --silent rotate-origin-secret -- --secret-arn <OriginSecretArn output> [--env <name>]');
    return 2;
  }
  const client = new SecretsManagerClient({});
  const settingsFile = `${SETTINGS_DIRECTORY}${values.env}.json`;
  const versionId = await rotateOriginSecret(async (SecretString) => {
    const { VersionId } = await client.send(new PutSecretValueCommand({ SecretId: secretArn, SecretString }));
    if (!VersionId) throw new Error('Secrets Manager returned no version id');
    return VersionId;
  }, settingsFile);
  console.log(`New origin secret version ${versionId}, written to ${settingsFile}.
Functions accept it within 30 s and keep accepting the old value for 24 h.
Now commit the settings file and run: npx cdk deploy -c env=${values.env}`);
  return 0;
}

if (process.argv[1]?.endsWith('rotate-origin-secret.ts')) {
  runCli(main);
}
