import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { temporaryDirectory } from './temporary-directories.ts';

const run = promisify(execFile);

/** Pinned: the test depends on how this client talks to a gateway (its recorded requests are fixtures too). */
export const CODEX_VERSION = '0.169.0';

/**
 * Codex's npm package pulls its native binary (tens of MB) as a platform package, so it is not a
 * dependency of the project: the test installs it on first use into a cache folder kept between runs.
 */
export async function ensureCodex(): Promise<string> {
  const cache = process.env.CODEX_CLI_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'gateway-codex', CODEX_VERSION);
  const launcher = join(cache, 'node_modules', '@openai', 'codex', 'bin', 'codex.js');
  if (existsSync(launcher)) return launcher;
  await mkdir(cache, { recursive: true });
  await run('npm', ['install', '--prefix', cache, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', `@openai/codex@${CODEX_VERSION}`], {
    timeout: 180_000,
    maxBuffer: 16 * 1024 * 1024,
  });
  if (!existsSync(launcher)) throw new Error(`Codex installed, but ${launcher} is missing`);
  return launcher;
}

export interface CodexRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** The working directory Codex ran its commands in. */
  workdir: string;
}

/**
 * Runs `codex exec` headless against the gateway as the README's "Use with Codex" configures it: a
 * `model_providers.gateway` entry with the gateway's /v1 as base URL, the Responses wire API, and the
 * project key in the variable `env_key` names. A throw-away HOME and CODEX_HOME keep it from reading or
 * writing the machine's settings; it runs commands without asking (approval never) and without a sandbox.
 */
export async function runCodex(launcher: string, options: { baseUrl: string; key: string; model: string; prompt: string; requestId: string }): Promise<CodexRun> {
  const home = temporaryDirectory('codex-home-');
  const codexHome = join(home, '.codex');
  const workdir = join(home, 'work');
  await mkdir(codexHome, { recursive: true });
  await mkdir(workdir, { recursive: true });
  await writeFile(
    join(codexHome, 'config.toml'),
    [
      `model = "${options.model}"`,
      'model_provider = "gateway"',
      'approval_policy = "never"',
      'sandbox_mode = "danger-full-access"',
      'check_for_update_on_startup = false',
      '',
      '[analytics]',
      'enabled = false',
      '',
      '[model_providers.gateway]',
      'name = "Model gateway"',
      `base_url = "${options.baseUrl}/v1"`,
      'env_key = "GATEWAY_API_KEY"',
      'wire_api = "responses"',
      'request_max_retries = 0',
      'stream_max_retries = 0',
      // One X-Request-ID for the run: GET /v1/generation?id= shows its latest turn.
      `http_headers = { "X-Request-ID" = "${options.requestId}" }`,
      '',
    ].join('\n'),
  );
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    CODEX_HOME: codexHome,
    GATEWAY_API_KEY: options.key,
  };
  // stdin closed: `codex exec` otherwise waits for more input after the prompt.
  const child = spawn(process.execPath, [launcher, 'exec', '--skip-git-repo-check', options.prompt], { env, cwd: workdir, stdio: ['ignore', 'pipe', 'pipe'], timeout: 120_000 });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const [code] = (await once(child, 'close')) as [number | null];
  return { code, stdout, stderr, workdir };
}
