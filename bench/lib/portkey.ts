import { existsSync, readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { NODE, runToEnd, startService, type Service } from './processes.ts';

export const PORTKEY_VERSION = '1.15.2';
const CACHE_DIR = join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'gateway-bench', 'portkey');
const PACKAGE_DIR = join(CACHE_DIR, 'node_modules', '@portkey-ai', 'gateway');

export type PortkeyStart = { ok: true; service: Service; version: string } | { ok: false; reason: string };

function installedVersion(): string | undefined {
  try {
    return (JSON.parse(readFileSync(join(PACKAGE_DIR, 'package.json'), 'utf8')) as { version?: string }).version;
  } catch {
    return undefined;
  }
}

/**
 * Portkey's open-source gateway, installed on demand into a cache folder outside the project (never a
 * project dependency) and started as a process of its own from its Node entry (`build/start-server.js`,
 * the package's bin), with `--port=` and `--headless`. Any failure is reported, never thrown.
 */
export async function startPortkey(pinTo: string | undefined): Promise<PortkeyStart> {
  try {
    if (installedVersion() !== PORTKEY_VERSION) {
      await mkdir(CACHE_DIR, { recursive: true });
      await runToEnd('npm', ['install', '--prefix', CACHE_DIR, '--no-audit', '--no-fund', '--loglevel=error', `@portkey-ai/gateway@${PORTKEY_VERSION}`], { cwd: CACHE_DIR });
    }
    const entry = join(PACKAGE_DIR, 'build', 'start-server.js');
    if (!existsSync(entry)) return { ok: false, reason: `no ${entry} in the installed package` };
    const port = 20_000 + Math.floor(Math.random() * 20_000);
    const service = await startService({
      name: 'portkey',
      command: NODE,
      args: [entry, `--port=${port}`, '--headless'],
      readyPattern: new RegExp(`(?:running at|Ready for connections|listening)[^\\n]*?(?::(${port}))?`, 'i'),
      pinTo,
      cwd: CACHE_DIR,
      timeoutMs: 30_000,
    });
    return { ok: true, service: { ...service, ready: String(port) }, version: installedVersion() ?? PORTKEY_VERSION };
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message.split('\n')[0] ?? error.message : String(error) };
  }
}

/** Portkey's headers for an OpenAI-compatible provider at a custom host (names as in its build: x-portkey-provider, x-portkey-custom-host). */
export function portkeyHeaders(upstreamPort: number): Record<string, string> {
  return {
    'x-portkey-provider': 'openai',
    'x-portkey-custom-host': `http://127.0.0.1:${upstreamPort}/v1`,
    authorization: 'Bearer sk-bench',
  };
}
