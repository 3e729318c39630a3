import { describe, expect, it } from 'vitest';
import { runCommand } from '../support/run-command.ts';

/** `npm start` is checked in npm-start.test.ts; the other commands here, as a user types them. */
const commands = [
  { script: 'admin', usage: /^Usage: npm run --silent admin -- \[options\] \[command\]\n/ },
  { script: 'usage', usage: /^Usage: npm run --silent usage -- <command>\n/ },
  { script: 'replay', usage: /^Usage: npm run --silent replay -- --bucket <UsageBucketName> --queue-url <UsageQueueUrl> \[--dry-run\]\n/ },
  { script: 'rotate-origin-secret', usage: /^Usage: npm run --silent rotate-origin-secret -- --secret-arn <OriginSecretArn output> \[--env <name>\]\n/ },
];

describe('every command line tool', () => {
  it.each(commands)('npm run $script prints its usage on stdout for -h and --help, with exit code 0', { timeout: 60_000 }, async ({ script, usage }) => {
    for (const flag of ['-h', '--help']) {
      const result = await runCommand('npm', ['run', '--silent', script, '--', flag], { AWS_REGION: 'us-east-1' });
      expect(result).toMatchObject({ code: 0, stderr: '', stdout: expect.stringMatching(usage) });
    }
  });
});
