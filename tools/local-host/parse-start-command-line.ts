import { parseArgs } from 'node:util';
import * as z from 'zod';
import { runtimeConfigSchema } from '../../shared/config/runtime-config.ts';
import { DEFAULT_LOCAL_CONSOLE_MEMBER } from './console-host.ts';
import { DEFAULT_DATA_DIR } from './host-file.ts';

/**
 * The handlers' settings `npm start` takes from its environment (README: Configuration), checked with the
 * functions' own schema so that a value the Lambda side would refuse is refused here too.
 */
const tuningSchema = runtimeConfigSchema.pick({
  GATEWAY_UPSTREAM_FIRST_BYTE_TIMEOUT_MS: true,
  GATEWAY_REQUEST_DEADLINE_MS: true,
  GATEWAY_HEARTBEAT_INTERVAL_MS: true,
  GATEWAY_MCP_UPSTREAM_TIMEOUT_MS: true,
  GATEWAY_MOCK_WORD_DELAY_MS: true,
  GATEWAY_GENERATION_RETENTION_DAYS: true,
});
type TuningSetting = keyof z.infer<typeof tuningSchema>;
const TUNING_SETTINGS = Object.keys(tuningSchema.shape) as TuningSetting[];

const TUNING_MEANINGS: Record<TuningSetting, string> = {
  GATEWAY_UPSTREAM_FIRST_BYTE_TIMEOUT_MS: "wait for a provider's response head, per attempt",
  GATEWAY_REQUEST_DEADLINE_MS: "the whole request's budget across failover attempts",
  GATEWAY_HEARTBEAT_INTERVAL_MS: 'SSE keep-alive comments while a provider is silent',
  GATEWAY_MCP_UPSTREAM_TIMEOUT_MS: 'the tool bridge: MCP server connect and each request',
  GATEWAY_MOCK_WORD_DELAY_MS: "pause between the mock provider's streamed words",
  GATEWAY_GENERATION_RETENTION_DAYS: 'how long GET /v1/generation can find a record',
};

const hostSettingsSchema = z.object({
  PORT: z
    .string()
    .regex(/^\d{1,5}$/, 'expected a port number from 0 to 65535')
    .transform(Number)
    .pipe(z.number().max(65535, 'expected a port number from 0 to 65535'))
    .default(8787),
  HOST: z.union([z.ipv4(), z.ipv6(), z.hostname()], 'expected an IP address or a host name, e.g. 127.0.0.1 or 0.0.0.0').default('127.0.0.1'),
  GATEWAY_DATA_DIR: z.string().min(1, 'expected a directory').default(DEFAULT_DATA_DIR),
  /** Who the console sign-in link printed by `npm start` signs in (a member id, e.g. an e-mail address). */
  GATEWAY_CONSOLE_USER: z.string().trim().toLowerCase().regex(/^[^\s/#]+$/, 'expected a member id without spaces, "/" or "#"').default(DEFAULT_LOCAL_CONSOLE_MEMBER),
  GATEWAY_QUIET: z
    .string()
    .optional()
    .transform((value) => ['1', 'true', 'yes', 'on'].includes(value?.toLowerCase() ?? '')),
});

const settingsSchema = hostSettingsSchema.extend(tuningSchema.shape);
const TUNING_DEFAULTS = tuningSchema.parse({});

function settingLine(name: string, fallback: string, meaning: string): string {
  return `  ${name.padEnd(39)}${fallback.padEnd(17)}${meaning}`;
}

export const START_USAGE = [
  'Usage: npm start [-- --quiet]',
  '',
  'Runs the gateway on this machine, no AWS account needed: its data (store, secrets, usage files) stays under',
  'GATEWAY_DATA_DIR. Ctrl-C stops it once the requests in flight are answered and metered; a second one at once.',
  '',
  '  -q, --quiet   no line per request (as GATEWAY_QUIET=1)',
  '  -h, --help    this help',
  '',
  'Settings, from the environment (e.g. PORT=8788 GATEWAY_HEARTBEAT_INTERVAL_MS=5000 npm start):',
  settingLine('PORT', '8787', 'the port (0 picks a free one)'),
  settingLine('HOST', '127.0.0.1', 'the interface to listen on'),
  settingLine('GATEWAY_DATA_DIR', DEFAULT_DATA_DIR, 'where the store, secrets and usage files are kept'),
  settingLine('GATEWAY_CONSOLE_USER', DEFAULT_LOCAL_CONSOLE_MEMBER, 'who the printed console link signs in'),
  settingLine('GATEWAY_QUIET', '–', '1: no line per request'),
  ...TUNING_SETTINGS.map((name) => settingLine(name, String(TUNING_DEFAULTS[name]), TUNING_MEANINGS[name])),
  settingLine('POWERTOOLS_LOG_LEVEL', 'WARN', "the handlers' structured logs (DEBUG … SILENT)"),
  '',
  'Exit codes:',
  '  0  stopped (Ctrl-C), or this help',
  '  1  could not start: the port in use, a gateway running on the data directory, or its store still held by',
  '     another process after 30 s (an admin command or a gateway stopping: the start waits for them that long)',
  '  2  a wrong option or setting (HOST not an address of this machine, too); nothing was started',
  '  130  stopped at once by a second Ctrl-C (what was running is metered as interrupted on the next start)',
].join('\n');

export interface StartSettings {
  port: number;
  hostname: string;
  dataDir: string;
  consoleUser: string;
  quiet: boolean;
  /** The tuning settings that were set, as the handlers' configuration takes them (by their environment names). */
  handlerSettings: Record<string, string>;
}

export type StartCommandLine =
  | { kind: 'start'; settings: StartSettings }
  /** `--help`: START_USAGE on stdout, exit code 0. */
  | { kind: 'help'; text: string }
  /** A wrong option or setting: one line for stderr, exit code 2. */
  | { kind: 'usage-error'; text: string };

/** Parses `npm start`'s arguments and environment without starting anything. */
export function parseStartCommandLine(argv: readonly string[], env: Record<string, string | undefined>): StartCommandLine {
  let flags: { quiet?: boolean; help?: boolean };
  try {
    flags = parseArgs({ args: [...argv], options: { quiet: { type: 'boolean', short: 'q' }, help: { type: 'boolean', short: 'h' } }, strict: true }).values;
  } catch (error) {
    return usageError(error instanceof Error ? error.message : String(error));
  }
  if (flags.help) return { kind: 'help', text: START_USAGE };
  const parsed = settingsSchema.safeParse(env);
  if (!parsed.success) {
    return usageError(parsed.error.issues.map((issue) => `${String(issue.path[0])}=${JSON.stringify(env[String(issue.path[0])])}: ${issue.message}`).join('; '));
  }
  const settings = parsed.data;
  const handlerSettings: Record<string, string> = {};
  for (const name of TUNING_SETTINGS) {
    const value = env[name];
    if (value !== undefined) handlerSettings[name] = value;
  }
  return {
    kind: 'start',
    settings: {
      port: settings.PORT,
      hostname: settings.HOST,
      dataDir: settings.GATEWAY_DATA_DIR,
      consoleUser: settings.GATEWAY_CONSOLE_USER,
      quiet: flags.quiet === true || settings.GATEWAY_QUIET,
      handlerSettings,
    },
  };
}

function usageError(message: string): StartCommandLine {
  return { kind: 'usage-error', text: `error: ${message} (npm start -- --help lists the options and settings)` };
}
