import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as z from 'zod';
import { awsRegionSchema } from '../../shared/core/bedrock-models.ts';

/**
 * A deployment's settings, one committed JSON file per environment: infra/settings/<env>.json, chosen with
 * `npx cdk deploy -c env=<env>` (default: `default`). Every field is documented in docs/deploy.md.
 * Unknown fields are refused, so a typo cannot be silently ignored.
 */
const sizingSchema = z.strictObject({
  /** MB; docs/decisions/function-sizing.md says how the defaults were measured. */
  memoryMb: z.int().min(128).max(10_240),
  /** Reserves (and caps) this many concurrent executions for the function; unset shares the account's pool. */
  reservedConcurrency: z.int().positive().optional(),
});

export const deploySettingsSchema = z
  .strictObject({
    /** The CloudFormation stack; a second gateway in one account needs its own, and its own secretPrefix and usageDatabaseName. */
    stackName: z.string().regex(/^[A-Za-z][A-Za-z0-9-]{0,127}$/).default('ModelGateway'),
    /** Pin the account and region; unset, the CLI's credentials decide. */
    account: z.string().regex(/^\d{12}$/).optional(),
    region: z.string().regex(/^[a-z]{2}(-[a-z]+)+-\d$/).optional(),
    /** The gateway's own URL; the certificate must be in us-east-1 (CloudFront's region). */
    customDomain: z
      .strictObject({ domainName: z.string().min(1), certificateArn: z.string().regex(/^arn:aws:acm:us-east-1:\d{12}:certificate\/.+$/) })
      .optional(),
    /** Create a web ACL (stack in us-east-1 only) with these AWS managed rule groups, body rules set to count. */
    waf: z.strictObject({ managedRuleGroups: z.array(z.string().min(1)).optional() }).optional(),
    /** Or attach an existing CloudFront web ACL. */
    webAclArn: z.string().regex(/^arn:aws:wafv2:us-east-1:\d{12}:global\/webacl\/.+$/).optional(),
    deletionProtection: z.boolean().default(true),
    /** The origin secret's version CloudFront sends; written by `npm run rotate-origin-secret` (docs/decisions/origin-secret.md). */
    originSecretVersion: z.uuid().optional(),
    /** Subscribed to the stack's alarm topic (each address confirms once by e-mail). */
    alarmEmails: z.array(z.email()).default([]),
    /** 1–180 s; above 60 needs CloudFront's quota for the account (docs/decisions/infrastructure.md). */
    originReadTimeoutSeconds: z.int().min(1).max(180).default(60),
    secretPrefix: z.string().regex(/^[A-Za-z0-9/_+=.@-]+\/$/).default('model-gateway/provider/'),
    /** Athena cancels a workgroup query that would scan more than this many GB (1–10,000). */
    athenaBytesScannedCutoffGb: z.int().min(1).max(10_000).default(10),
    usageDatabaseName: z.string().regex(/^[a-z0-9_]{1,255}$/).default('model_gateway'),
    /** CloudWatch Logs retention of every function's log group, in days. */
    logRetentionDays: z.union([z.literal(30), z.literal(90), z.literal(180), z.literal(365), z.literal(731), z.literal(1827)]).default(90),
    routeGroups: sizingSchema.default({ memoryMb: 512 }),
    /** The MCP route group: a batch holds up to 32 upstream answers of 6 MB at once (docs/decisions/function-sizing.md). */
    toolBridge: sizingSchema.default({ memoryMb: 1024 }),
    writer: sizingSchema
      .extend({
        /** At most this many writer invocations at once (SQS event source maximum concurrency, 2–1000). */
        maxConcurrency: z.int().min(2).max(1000).default(5),
      })
      .default({ memoryMb: 256, maxConcurrency: 5 }),
    admin: sizingSchema.default({ memoryMb: 256 }),
    /** The daily usage compaction holds a day's records in memory: ~3 KB each (docs/decisions/function-sizing.md). */
    usageCompactor: sizingSchema.default({ memoryMb: 1024 }),
    /**
     * The Bedrock models the route groups may invoke (docs/decisions/bedrock.md): foundation model ids,
     * inference profiles, ARNs, or "*" for all; in `regions` (default: the stack's region).
     */
    bedrock: z
      .strictObject({
        models: z.array(z.union([z.literal('*'), z.string().regex(/^(arn:aws[a-z-]*:bedrock:[a-z0-9-]*:\d{0,12}:[a-z-]+\/[A-Za-z0-9._:-]+|[a-z0-9-]+(\.[a-z0-9-]+)+[A-Za-z0-9._:-]*)$/, 'Bedrock models are ids such as anthropic.claude-… or us.anthropic.claude-…, or ARNs')])),
        regions: z.array(awsRegionSchema).min(1).optional(),
      })
      .optional(),
    console: sizingSchema.default({ memoryMb: 512 }),
    /**
     * The console's hosted sign-in pages, `<prefix>.auth.<region>.amazoncognito.com`: unique per region, so a
     * second gateway needs its own. Unset: `<stackName>-console-<account>` in lower case.
     */
    consoleDomainPrefix: z
      .string()
      .regex(/^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/, 'lower-case letters, digits and hyphens, at most 63')
      .refine((prefix) => !/aws|amazon|cognito/.test(prefix), 'Cognito refuses prefixes containing aws, amazon or cognito')
      .optional(),
  })
  .refine((settings) => !(settings.waf && settings.webAclArn), { message: 'Give either waf (create a web ACL) or webAclArn (attach one), not both.' });

export type DeploySettings = z.infer<typeof deploySettingsSchema>;

export const SETTINGS_DIRECTORY = fileURLToPath(new URL('.', import.meta.url));

/** Parses one environment's settings; the error names the file and each invalid field. */
export function parseDeploySettings(json: unknown, source: string): DeploySettings {
  const parsed = deploySettingsSchema.safeParse(json);
  if (!parsed.success) {
    const details = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(file)'}: ${issue.message}`).join('; ');
    throw new Error(`Invalid deploy settings in ${source}: ${details}`);
  }
  return parsed.data;
}

/** The path of one environment's settings file (which may not exist). */
export function deploySettingsFile(environment: string, directory = SETTINGS_DIRECTORY): string {
  if (!/^[a-z0-9][a-z0-9-]*$/.test(environment)) throw new Error(`env must be a lower-case name such as prod, not "${environment}"`);
  return `${directory.replace(/\/$/, '')}/${environment}.json`;
}

/** The environments that have a settings file, by name. */
export function deployEnvironments(directory = SETTINGS_DIRECTORY): string[] {
  return readdirSync(directory)
    .filter((name) => name.endsWith('.json'))
    .map((name) => name.slice(0, -'.json'.length))
    .sort();
}

export function loadDeploySettings(environment: string, directory = SETTINGS_DIRECTORY): DeploySettings {
  const path = deploySettingsFile(environment, directory);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    const known = deployEnvironments(directory);
    throw new Error(`No deploy settings for env "${environment}": ${path} does not exist (envs: ${known.join(', ') || 'none'}); create it to add one (see docs/deploy.md)`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new Error(`Invalid deploy settings in ${path}: not JSON (${error instanceof Error ? error.message : String(error)})`, { cause: error });
  }
  return parseDeploySettings(json, path);
}
