import * as z from 'zod';
import { PARSED_RARELY } from '../core/parsed-rarely.ts';

const booleanFlag = z
  .enum(['true', 'false', '1', '0'])
  .transform((value) => value === 'true' || value === '1');

/**
 * The environment every function reads once at cold start. Invalid configuration fails fast, at
 * start-up, with zod's description of the field.
 */
export const runtimeConfigSchema = z.object({
  GATEWAY_KEYS_TABLE: z.string().min(1).default('gateway-keys'),
  GATEWAY_PROJECTS_TABLE: z.string().min(1).default('gateway-projects'),
  GATEWAY_GENERATIONS_TABLE: z.string().min(1).default('gateway-generations'),
  /** Rate-limit counters (expire by TTL). */
  GATEWAY_COUNTERS_TABLE: z.string().min(1).default('gateway-counters'),
  /** How long generation records stay queryable through GET /v1/generation. */
  GATEWAY_GENERATION_RETENTION_DAYS: z.coerce.number().int().positive().default(90),
  /** The usage queue (SQS) route groups send records to; the local host injects its own queue instead. */
  GATEWAY_USAGE_QUEUE_URL: z.string().optional(),
  /** The bucket whose `spill/` prefix takes usage records SQS refused (route groups in AWS); unset locally. */
  GATEWAY_USAGE_SPILL_BUCKET: z.string().min(1).optional(),
  /** Where the writer puts the usage files: an S3 bucket in AWS, a directory locally. */
  GATEWAY_USAGE_ARCHIVE: z.enum(['s3', 'file']).default('s3'),
  GATEWAY_USAGE_BUCKET: z.string().optional(),
  GATEWAY_USAGE_DIR: z.string().optional(),
  /** Set locally to the embedded DynamoDB-compatible store; unset in AWS. */
  GATEWAY_DYNAMODB_ENDPOINT: z.url().optional(),
  GATEWAY_SECRETS_BACKEND: z.enum(['secrets-manager', 'file']).default('secrets-manager'),
  GATEWAY_SECRETS_FILE: z.string().optional(),
  /** Provider keys are stored as `<prefix><projectId>/<provider>` in Secrets Manager. */
  GATEWAY_SECRET_PREFIX: z.string().default('model-gateway/provider/'),
  /** Development only: allow provider base URLs on loopback and private networks, and plain http. */
  GATEWAY_ALLOW_PRIVATE_UPSTREAMS: booleanFlag.default(false),
  GATEWAY_UPSTREAM_FIRST_BYTE_TIMEOUT_MS: z.coerce.number().int().positive().default(300_000),
  /** The whole request's budget across failover attempts; under the 15 minutes a Lambda may run. */
  GATEWAY_REQUEST_DEADLINE_MS: z.coerce.number().int().positive().default(840_000),
  GATEWAY_HEARTBEAT_INTERVAL_MS: z.coerce.number().int().positive().default(15_000),
  /** CloudFront's origin read timeout (the stack sets it from its settings); unset where no CloudFront stands in front. */
  GATEWAY_ORIGIN_READ_TIMEOUT_MS: z.coerce.number().int().positive().optional(),
  /** The tool bridge: how long an upstream MCP server may take to connect, and to answer each request. */
  GATEWAY_MCP_UPSTREAM_TIMEOUT_MS: z.coerce.number().int().positive().default(30_000),
  GATEWAY_MOCK_WORD_DELAY_MS: z.coerce.number().int().nonnegative().default(15),
  /**
   * Secrets Manager ARN of the header value CloudFront adds to origin requests; when set, function-URL
   * requests without it are refused. Unset locally, where there is no CloudFront.
   */
  GATEWAY_ORIGIN_SECRET_ARN: z.string().min(1).optional(),
  /**
   * The console function in AWS: the bucket of the console's files, whose config.json names the user pool
   * and app client of its Cognito sign-in. The local host gives its own sign-in instead.
   */
  GATEWAY_CONSOLE_SITE_BUCKET: z.string().min(1).optional(),
  /** The console function in AWS: the Athena workgroup and Glue database of its usage queries (DuckDB on the local host). */
  GATEWAY_ATHENA_WORKGROUP: z.string().min(1).optional(),
  GATEWAY_USAGE_DATABASE: z.string().min(1).default('model_gateway'),
  AWS_REGION: z.string().default('us-east-1'),
  /** The AWS SDK's endpoint overrides, honoured by the gateway's own calls too: a service's own, else every service's. */
  AWS_ENDPOINT_URL_SQS: z.url().optional(),
  AWS_ENDPOINT_URL_DYNAMODB: z.url().optional(),
  AWS_ENDPOINT_URL_SECRETS_MANAGER: z.url().optional(),
  AWS_ENDPOINT_URL_S3: z.url().optional(),
  AWS_ENDPOINT_URL: z.url().optional(),
  /** The structured logs' level (Powertools' own variable). */
  POWERTOOLS_LOG_LEVEL: z.enum(['TRACE', 'DEBUG', 'INFO', 'WARN', 'ERROR', 'CRITICAL', 'SILENT']).default('INFO'),
  /** Set by the Lambda runtime: embedded metrics are emitted only there. */
  AWS_LAMBDA_FUNCTION_NAME: z.string().optional(),
});
export type RuntimeConfig = z.infer<typeof runtimeConfigSchema>;

export function loadRuntimeConfig(env: Record<string, string | undefined>): RuntimeConfig {
  const parsed = runtimeConfigSchema.safeParse(env, PARSED_RARELY);
  if (!parsed.success) {
    const details = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
    throw new Error(`Invalid gateway configuration: ${details}`);
  }
  return parsed.data;
}

/** A setting that one function needs and the schema cannot require of all: read when that function starts. */
export function requireSetting(config: RuntimeConfig, name: keyof RuntimeConfig): string {
  const value = config[name];
  if (typeof value !== 'string' || value === '') throw new Error(`Invalid gateway configuration: ${name} is required`);
  return value;
}
