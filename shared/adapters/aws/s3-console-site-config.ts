import { CONSOLE_SITE_CONFIG_FILE, consoleSiteConfigSchema, type ConsoleSiteConfig } from '../../console/console-site.ts';
import type { S3Objects } from '../../transport/s3-objects.ts';

/** The key of config.json among the console's static files (they are served under /console/). */
export const CONSOLE_SITE_CONFIG_KEY = `console/${CONSOLE_SITE_CONFIG_FILE}`;

/**
 * Reads the console's sign-in settings from the file the stack deploys beside the page: the page and the
 * console function read the same user pool and app client (docs/decisions/console.md says why it is a file).
 */
export async function loadConsoleSiteConfig(s3: S3Objects, bucket: string): Promise<ConsoleSiteConfig> {
  const text = new TextDecoder().decode(await s3.get(bucket, CONSOLE_SITE_CONFIG_KEY));
  if (!text) throw new Error(`s3://${bucket}/${CONSOLE_SITE_CONFIG_KEY} is empty.`);
  return consoleSiteConfigSchema.parse(JSON.parse(text));
}
