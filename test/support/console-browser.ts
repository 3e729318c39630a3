import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { launchChromium, type HeadlessChromium } from './chromium.ts';
import { projectRoot } from './run-command.ts';
import { startTestGateway, type TestGateway } from './test-gateway.ts';

/** Screenshots of each page, for review (git-ignored). */
const SCREENSHOTS = join(projectRoot, 'test', 'screenshots');
export const CONSOLE_OWNER = 'olivia@example.com';
export const CONSOLE_MEMBER = 'max@example.com';

/** A local gateway with the console tests' projects (acme: an owner and a member; research: the owner only) and a browser page on it. */
export interface ConsoleBrowser {
  gateway: TestGateway;
  page: Page;
  /** Content-Security-Policy violations the page reported. */
  cspViolations: string[];
  /** Errors the page left uncaught (what the browser's console shows as JavaScript errors). */
  pageErrors: string[];
  shoot(name: string): Promise<unknown>;
  /** Opens a section of the current project and waits for its heading. */
  openSection(name: string): Promise<void>;
  close(): Promise<void>;
}

export async function startConsoleBrowser(): Promise<ConsoleBrowser> {
  await mkdir(SCREENSHOTS, { recursive: true });
  const gateway = await startTestGateway();
  await gateway.admin({ command: 'project.create', projectId: 'acme', name: 'Acme' });
  await gateway.admin({ command: 'provider.set', projectId: 'acme', provider: 'mock' });
  await gateway.admin({ command: 'model.allow', projectId: 'acme', slug: 'mock/echo', alias: 'echo', inputMicrosPer1k: 150, outputMicrosPer1k: 600, longContextAboveTokens: 200_000, longContextInputMicrosPer1k: 300, longContextOutputMicrosPer1k: 900 });
  await gateway.admin({ command: 'member.add', projectId: 'acme', member: CONSOLE_OWNER, role: 'owner' });
  await gateway.admin({ command: 'member.add', projectId: 'acme', member: CONSOLE_MEMBER });
  await gateway.admin({ command: 'project.create', projectId: 'research', name: 'Research lab' });
  await gateway.admin({ command: 'member.add', projectId: 'research', member: CONSOLE_OWNER });
  let browser: HeadlessChromium | undefined;
  try {
    browser = await launchChromium();
    const page = await browser.context.newPage();
    const cspViolations: string[] = [];
    page.on('console', (message) => {
      if (/Content.Security.Policy/i.test(message.text())) cspViolations.push(message.text());
    });
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    const opened = browser;
    return {
      gateway,
      page,
      cspViolations,
      pageErrors,
      shoot: (name) => page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true }),
      async openSection(name) {
        await page.getByRole('navigation', { name: 'Project sections' }).getByRole('link', { name }).click();
        await expect.poll(() => page.getByRole('heading', { level: 2, name }).count()).toBe(1);
      },
      async close() {
        await opened.close();
        await gateway.close();
      },
    };
  } catch (error) {
    await browser?.close();
    await gateway.close();
    throw error;
  }
}
