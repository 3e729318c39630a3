import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { chromium, type BrowserContext } from 'playwright-core';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);

/** Debian's chromium package: the browser the console tests drive (no browser download from a CDN). */
export const CHROMIUM_PATH = '/usr/bin/chromium';

/** Flags for a quiet, isolated headless run in a container: no sandbox, GPU, QUIC, sync or background traffic. */
const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export type ChromiumAvailability = { available: true } | { available: false; reason: string };

/**
 * Makes sure Chromium is installed: present already, or installed now with apt-get (as root, or through
 * password-less sudo). Says why not when it cannot be, so the caller can skip with that reason.
 */
export async function ensureChromium(): Promise<ChromiumAvailability> {
  if (existsSync(CHROMIUM_PATH)) return { available: true };
  if (process.platform !== 'linux' || !existsSync('/usr/bin/apt-get')) {
    return { available: false, reason: `${CHROMIUM_PATH} is missing and this machine has no apt-get to install Debian's chromium package` };
  }
  const asRoot = process.getuid?.() === 0;
  if (!asRoot && !existsSync('/usr/bin/sudo')) return { available: false, reason: `${CHROMIUM_PATH} is missing; installing it needs root or sudo` };
  const apt = (...args: string[]) =>
    asRoot ? run('apt-get', args, { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } }) : run('sudo', ['-n', 'env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get', ...args]);
  try {
    console.warn(`console browser tests: installing chromium with apt-get (${CHROMIUM_PATH} is missing)…`);
    await apt('update', '-qq');
    await apt('install', '-y', '-qq', '--no-install-recommends', 'chromium');
  } catch (error) {
    const detail = error instanceof Error ? error.message.split('\n').slice(-3).join(' ') : String(error);
    return { available: false, reason: `chromium could not be installed with apt-get: ${detail}` };
  }
  return existsSync(CHROMIUM_PATH) ? { available: true } : { available: false, reason: `apt-get ran but ${CHROMIUM_PATH} is still missing` };
}

/**
 * Describes tests that drive the console in Chromium, installing it first. A machine where it cannot be
 * installed fails one test saying why: it skips nothing.
 */
export async function describeInChromium(title: string, tests: () => void): Promise<void> {
  const availability = await ensureChromium();
  if (availability.available) {
    describe(title, tests);
    return;
  }
  describe(title, () => {
    it('runs in Chromium, which the test set-up installs', () => {
      expect.fail(`Chromium could not be installed: ${availability.reason}`);
    });
  });
}

export interface HeadlessChromium {
  context: BrowserContext;
  close(): Promise<void>;
}

/** Headless Chromium with a fresh profile directory, removed on close. */
export async function launchChromium(): Promise<HeadlessChromium> {
  const userDataDir = await mkdtemp(join(tmpdir(), 'console-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_FLAGS,
    viewport: { width: 1280, height: 860 },
    acceptDownloads: true,
  });
  return {
    context,
    async close() {
      await context.close();
      await rm(userDataDir, { recursive: true, force: true });
    },
  };
}
