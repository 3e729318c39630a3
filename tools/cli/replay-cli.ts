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
record once. Prints {"replayed": [...], "failed": [...]}; exit code 1 when a record failed.
Credentials come from the usual AWS environment (AWS_PROFILE); the region from the queue URL (else AWS_REGION).`;

/** `npm run replay`: parses the command line, or explains it (exit code 2). */
export function parseReplayArgs(argv: string[]): { bucket: string; queueUrl: string; dryRun: boolean } | undefined {
  try {
    const { values } = parseArgs({
      args: argv,
      options: { bucket: { type: 'string' }, 'queue-url': { type: 'string' }, 'dry-run': { type: 'boolean', default: false } },
      strict: true,
      allowPositionals: false,
    });
    if (!values.bucket || !values['queue-url']) return undefined;
    return { bucket: values.bucket, queueUrl: values['queue-url'], dryRun: values['dry-run'] };
  } catch {
    return undefined;
  }
}

async function main(argv: string[]): Promise<number> {
  const options = parseReplayArgs(argv);
  if (!options) {
    console.error(REPLAY_USAGE);
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
