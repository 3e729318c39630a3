import { parseArgs } from 'node:util';
import { S3Client } from '@aws-sdk/client-s3';
import { S3UsageSpill } from '../../shared/adapters/aws/s3-usage-spill.ts';
import { createDefaultAwsCredentials } from '../../shared/adapters/aws/default-aws-credentials.ts';
import { regionOfQueueUrl, SqsUsageSink } from '../../shared/adapters/aws/sqs-usage-sink.ts';
import { createNodeHttpFetch } from '../../shared/transport/node-http-fetch.ts';
import { replaySpilledUsage } from '../../shared/usage-writer/replay-spilled-usage.ts';
import { runCli } from './run-cli.ts';

export const REPLAY_USAGE = `Usage: npm run --silent replay -- --bucket <UsageBucketName> --queue-url <UsageQueueUrl> [--dry-run]

Sends the usage records the queue refused (spilled to s3://<bucket>/spill/) back to the usage queue and
removes each from the spill once the queue took it. Replaying twice is harmless: the writer applies each
record once. Prints {"replayed": [...], "failed": [...]}.

  --bucket NAME      the stack's UsageBucketName output (required)
  --queue-url URL    the stack's UsageQueueUrl output (required)
  --dry-run          list what would be replayed; change nothing
  -h, --help         this help

Credentials come from the usual AWS environment (AWS_PROFILE); the region from the queue URL (else AWS_REGION).
Exit codes: 0 every record replayed; 1 a record failed; 2 a wrong command line (nothing was done).`;

export type ReplayCommandLine =
  | { kind: 'replay'; bucket: string; queueUrl: string; dryRun: boolean }
  /** `--help`: REPLAY_USAGE on stdout, exit code 0. */
  | { kind: 'help' }
  /** A wrong command line: the error and REPLAY_USAGE on stderr, exit code 2. */
  | { kind: 'usage-error'; message: string };

/** `npm run replay`: parses the command line without running anything. */
export function parseReplayArgs(argv: string[]): ReplayCommandLine {
  let values: { bucket?: string; 'queue-url'?: string; 'dry-run': boolean; help?: boolean };
  try {
    values = parseArgs({
      args: argv,
      options: { bucket: { type: 'string' }, 'queue-url': { type: 'string' }, 'dry-run': { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h' } },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (error) {
    return { kind: 'usage-error', message: error instanceof Error ? error.message : String(error) };
  }
  if (values.help) return { kind: 'help' };
  if (!values.bucket || !values['queue-url']) return { kind: 'usage-error', message: 'both --bucket and --queue-url are required' };
  return { kind: 'replay', bucket: values.bucket, queueUrl: values['queue-url'], dryRun: values['dry-run'] };
}

async function main(argv: string[]): Promise<number> {
  const options = parseReplayArgs(argv);
  if (options.kind === 'help') {
    console.log(REPLAY_USAGE);
    return 0;
  }
  if (options.kind === 'usage-error') {
    console.error(`error: ${options.message}\n\n${REPLAY_USAGE}`);
    return 2;
  }
  const spill = new S3UsageSpill(new S3Client({}), options.bucket);
  const credentials = createDefaultAwsCredentials();
  const queue = new SqsUsageSink(
    {
      queueUrl: options.queueUrl,
      // The queue's own region first: the call goes to the queue URL's host and is signed for its region.
      region: regionOfQueueUrl(options.queueUrl) ?? process.env.AWS_REGION ?? 'us-east-1',
      endpoint: process.env.AWS_ENDPOINT_URL_SQS ?? process.env.AWS_ENDPOINT_URL,
    },
    () => credentials.credentials(process.env.AWS_PROFILE),
    createNodeHttpFetch({ allowPrivateAddresses: true }),
  );
  const outcome = await replaySpilledUsage(spill, queue, { dryRun: options.dryRun });
  console.log(JSON.stringify(outcome, null, 2));
  return outcome.failed.length > 0 ? 1 : 0;
}

if (process.argv[1]?.endsWith('replay-cli.ts')) {
  runCli(main);
}
