import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { temporaryDirectory } from './temporary-directories.ts';

const run = promisify(execFile);

/** Pinned: the test depends on how this client talks to a gateway. */
export const CLAUDE_CODE_VERSION = '2.1.330';

/**
 * Claude Code's npm package carries a native binary of several hundred MB, so it is not a dependency of
 * the project: the test installs it on first use into a cache folder kept between runs.
 */
export async function ensureClaudeCode(): Promise<string> {
  const cache = process.env.CLAUDE_CODE_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'gateway-claude-code', CLAUDE_CODE_VERSION);
  const binary = join(cache, 'node_modules', '@anthropic-ai', 'claude-code', 'bin', 'claude.exe');
  if (existsSync(binary)) return binary;
  await mkdir(cache, { recursive: true });
  await run('npm', ['install', '--prefix', cache, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', `@anthropic-ai/claude-code@${CLAUDE_CODE_VERSION}`], {
    timeout: 180_000,
    maxBuffer: 16 * 1024 * 1024,
  });
  if (!existsSync(binary)) throw new Error(`Claude Code installed, but ${binary} is missing`);
  return binary;
}

export interface ClaudeCodeRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs Claude Code headless (`-p`) against the gateway as its LLM-gateway documentation describes:
 * ANTHROPIC_BASE_URL is the host alone, ANTHROPIC_AUTH_TOKEN the project key, no API key. A throw-away
 * HOME keeps it from reading or writing the machine's settings.
 */
export async function runClaudeCode(
  binary: string,
  options: { baseUrl: string; token: string; model: string; prompt: string; extraArgs?: readonly string[]; env?: Record<string, string> },
): Promise<ClaudeCodeRun> {
  const home = temporaryDirectory('claude-home-');
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    ANTHROPIC_BASE_URL: options.baseUrl,
    ANTHROPIC_AUTH_TOKEN: options.token,
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
    ...options.env,
  };
  // stdin closed: headless Claude Code otherwise waits for piped input.
  const child = spawn(binary, ['-p', options.prompt, '--model', options.model, ...(options.extraArgs ?? [])], { env, cwd: home, stdio: ['ignore', 'pipe', 'pipe'], timeout: 120_000 });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const [code] = (await once(child, 'close')) as [number | null];
  return { code, stdout, stderr };
}
