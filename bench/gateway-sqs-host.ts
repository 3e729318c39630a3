import { startLocalHost } from '../tools/local-host/local-host.ts';

/**
 * The local host in the shape the gateway has in AWS: usage records leave through SQS SendMessage (to
 * bench/fake-sqs.ts, another process) instead of the in-process queue whose writer shares the core, and
 * each request writes its CloudWatch metrics to stdout.
 * Env: PORT, GATEWAY_DATA_DIR, BENCH_SQS_URL (the fake SQS's base URL).
 */
const sqs = process.env.BENCH_SQS_URL;
if (!sqs) throw new Error('BENCH_SQS_URL is required');
// The usage sink signs with credentials from the process environment, as in Lambda; it sends to the queue
// URL's host, which is the fake's.
Object.assign(process.env, { AWS_ACCESS_KEY_ID: 'bench', AWS_SECRET_ACCESS_KEY: 'bench' });
const host = await startLocalHost({
  port: Number(process.env.PORT ?? 0),
  dataDir: process.env.GATEWAY_DATA_DIR ?? './.gateway-bench',
  usageVia: 'sqs',
  // A function name, as Lambda sets it, turns on the route groups' embedded metrics (two stdout lines per request).
  env: { GATEWAY_USAGE_QUEUE_URL: `${sqs}/000000000000/gateway-usage`, GATEWAY_MOCK_WORD_DELAY_MS: '0', AWS_LAMBDA_FUNCTION_NAME: 'gateway-bench' },
});
console.log(`Model gateway listening on ${host.url} (data in ${host.dataDir})`);
process.on('SIGTERM', () => void host.close().then(() => process.exit(0)));
