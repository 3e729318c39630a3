import type { ConsoleSiteConfig } from '../../../shared/console/console-site.ts';

export type { ConsoleSiteConfig };

/** config.json beside the page: how people sign in here (local links, or Cognito's hosted pages). */
export async function loadSiteConfig(): Promise<ConsoleSiteConfig> {
  const response = await fetch('config.json', { cache: 'no-store' });
  if (!response.ok) throw new Error(`config.json: ${response.status}`);
  return (await response.json()) as ConsoleSiteConfig;
}
