import { z } from 'zod';

/**
 * The console function's own settings, beside the runtime configuration every function reads. The local
 * host sets the local ones; the stack sets the AWS ones.
 */
export const consoleConfigSchema = z.object({
  /** `cognito` in AWS; `local` on the local host (one-time sign-in links printed by `npm start`). */
  GATEWAY_CONSOLE_SIGN_IN: z.enum(['cognito', 'local']).default('cognito'),
  /** AWS: the bucket of the console's static files, whose config.json names the user pool and app client. */
  GATEWAY_CONSOLE_SITE_BUCKET: z.string().optional(),
  /** `athena` in AWS; `duckdb` on the local host (the usage files of GATEWAY_USAGE_DIR). */
  GATEWAY_USAGE_QUERY: z.enum(['athena', 'duckdb']).default('athena'),
  GATEWAY_ATHENA_WORKGROUP: z.string().optional(),
  GATEWAY_USAGE_DATABASE: z.string().default('model_gateway'),
});
export type ConsoleConfig = z.infer<typeof consoleConfigSchema>;

export function loadConsoleConfig(env: Record<string, string | undefined>): ConsoleConfig {
  const parsed = consoleConfigSchema.safeParse(env);
  if (!parsed.success) {
    throw new Error(`Invalid console configuration: ${parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`);
  }
  return parsed.data;
}
