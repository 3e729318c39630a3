import { randomBytes } from 'node:crypto';
import { accessSync, constants, readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { PutSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { deploySettingsFile, loadDeploySettings, SETTINGS_DIRECTORY } from '../../infra/settings/deploy-settings.ts';
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

export const ROTATE_ORIGIN_SECRET_USAGE = `Usage: npm run --silent rotate-origin-secret -- --secret-arn <OriginSecretArn output> [--env <name>]

Step 1 of rotating the secret header CloudFront adds to its requests to the functions
(docs/decisions/origin-secret.md): stores a new value in Secrets Manager (the functions keep accepting the old
one for 24 h) and writes its version id to infra/settings/<env>.json as originSecretVersion. Then commit that
file and run: npx cdk deploy -c env=<env>

  --secret-arn ARN   the secret: the stack's OriginSecretArn output (required)
  --env NAME         whose settings file to update: infra/settings/NAME.json (default: default)
  -h, --help         this help

Credentials and region come from the usual AWS environment (AWS_PROFILE, AWS_REGION).
Exit codes:
  0  rotated; what to do next is on stdout
  1  Secrets Manager refused, or the settings file could not be written after it took the new value
  2  a wrong command line, or an env without a valid, writable settings file; nothing was changed`;

/** Stores a new value (it becomes AWSCURRENT, the old one AWSPREVIOUS) and returns its version id. */
export type PutOriginSecret = (value: string) => Promise<string>;

/** A reason to change nothing: the command line or the env's settings file is wrong (exit code 2). */
export class RotationRefused extends Error {
  override readonly name = 'RotationRefused';
}

/**
 * Step 1 of a rotation (docs/decisions/origin-secret.md): a new value in Secrets Manager, and its version
 * in the environment's settings file, so that the next `cdk deploy` changes the distribution's header.
 * Everything that can be checked is checked before the new value is stored: a value stored while its
 * version cannot be written would become current in Secrets Manager without any deployment naming it.
 */
export async function rotateOriginSecret(put: PutOriginSecret, environment: string, directory = SETTINGS_DIRECTORY): Promise<{ versionId: string; settingsFile: string }> {
  let settingsFile: string;
  try {
    loadDeploySettings(environment, directory);
    settingsFile = deploySettingsFile(environment, directory);
    accessSync(settingsFile, constants.W_OK);
  } catch (error) {
    throw new RotationRefused(error instanceof Error ? error.message : String(error), { cause: error });
  }
  const settings = JSON.parse(readFileSync(settingsFile, 'utf8')) as Record<string, unknown>;
  const versionId = await put(newOriginSecretValue());
  try {
    writeFileSync(settingsFile, `${JSON.stringify({ ...settings, originSecretVersion: versionId }, null, 2)}\n`);
  } catch (error) {
    throw new Error(`Secrets Manager took the new value (version ${versionId}), but ${settingsFile} could not be written: set "originSecretVersion": "${versionId}" in it by hand (${error instanceof Error ? error.message : String(error)})`, { cause: error });
  }
  return { versionId, settingsFile };
}

/** Where the command writes: the console's streams, or a test's. */
export interface RotationOutput {
  log(text: string): void;
  error(text: string): void;
}

/** `npm run rotate-origin-secret`: the exit code; `settingsDirectory` is the repository's unless a test gives its own. */
export async function runRotateOriginSecret(argv: string[], output: RotationOutput = console, settingsDirectory = SETTINGS_DIRECTORY): Promise<number> {
  let values: { env: string; 'secret-arn'?: string; help?: boolean };
  try {
    values = parseArgs({ args: argv, options: { env: { type: 'string', default: 'default' }, 'secret-arn': { type: 'string' }, help: { type: 'boolean', short: 'h' } }, strict: true }).values;
  } catch (error) {
    output.error(`error: ${error instanceof Error ? error.message : String(error)}\nRun "npm run --silent rotate-origin-secret -- --help" for usage.`);
    return 2;
  }
  if (values.help) {
    output.log(ROTATE_ORIGIN_SECRET_USAGE);
    return 0;
  }
  const secretArn = values['secret-arn'];
  if (!secretArn) {
    output.error('error: --secret-arn is required (the stack\'s OriginSecretArn output)\nRun "npm run --silent rotate-origin-secret -- --help" for usage.');
    return 2;
  }
  const client = new SecretsManagerClient({});
  try {
    const { versionId, settingsFile } = await rotateOriginSecret(
      async (SecretString) => {
        const { VersionId } = await client.send(new PutSecretValueCommand({ SecretId: secretArn, SecretString }));
        if (!VersionId) throw new Error('Secrets Manager returned no version id');
        return VersionId;
      },
      values.env,
      settingsDirectory,
    );
    output.log(`New origin secret version ${versionId}, written to ${settingsFile}.
Functions accept it within 30 s and keep accepting the old value for 24 h.
Now commit the settings file and run: npx cdk deploy -c env=${values.env}`);
    return 0;
  } catch (error) {
    if (!(error instanceof RotationRefused)) throw error;
    output.error(`error: ${error.message}; nothing was changed`);
    return 2;
  } finally {
    client.destroy();
  }
}

if (process.argv[1]?.endsWith('rotate-origin-secret.ts')) {
  runCli((argv) => runRotateOriginSecret(argv));
}
