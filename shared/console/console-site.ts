import * as z from 'zod';

/** The console's path on the gateway host; its static files live under it, its API under `api/`. */
export const CONSOLE_PATH = '/console';
/** The file beside the page that tells it (and the console function in AWS) how people sign in. */
export const CONSOLE_SITE_CONFIG_FILE = 'config.json';

/**
 * How people sign in: with the one-time links of the local host, or on the Cognito user pool's hosted
 * pages (authorization code with PKCE). Written at deployment beside the static files in AWS.
 */
export const consoleSiteConfigSchema = z.discriminatedUnion('signIn', [
  z.object({ signIn: z.literal('local') }),
  z.object({
    signIn: z.literal('cognito'),
    region: z.string().min(1),
    userPoolId: z.string().min(1),
    clientId: z.string().min(1),
    /** The hosted sign-in pages, `https://<prefix>.auth.<region>.amazoncognito.com`. */
    signInOrigin: z.url(),
  }),
]);
export type ConsoleSiteConfig = z.infer<typeof consoleSiteConfigSchema>;

/**
 * The console page's Content-Security-Policy: its own scripts and styles only (no inline code), no
 * frames, calls to its own API and, in AWS, to the token endpoint of the hosted sign-in pages.
 */
export function consoleContentSecurityPolicy(signInOrigin?: string): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    `connect-src 'self'${signInOrigin ? ` ${signInOrigin}` : ''}`,
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}
