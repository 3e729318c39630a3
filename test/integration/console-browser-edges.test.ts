import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeInChromium } from '../support/chromium.ts';
import { CONSOLE_OWNER as OWNER, startConsoleBrowser, type ConsoleBrowser } from '../support/console-browser.ts';
import type { TestGateway } from '../support/test-gateway.ts';

/** What the console does at its edges: its skip link, names longer than a screen, giving up ownership, two tabs. */
await describeInChromium('the console in a browser, at its edges', () => {
  let consoleBrowser: ConsoleBrowser;
  let gateway: TestGateway;
  let page: Page;
  const LONG_NAME = `Research-${'VeryLong'.repeat(23)}`;
  const heading = () => page.getByRole('heading', { level: 1 }).textContent();
  /** How far the page is wider than its window: names that do not wrap widen it. */
  const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

  beforeAll(async () => {
    consoleBrowser = await startConsoleBrowser();
    ({ gateway, page } = consoleBrowser);
    await gateway.admin({ command: 'project.create', projectId: 'shared', name: LONG_NAME });
    await gateway.admin({ command: 'member.add', projectId: 'shared', member: OWNER, role: 'owner' });
    await gateway.admin({ command: 'member.add', projectId: 'shared', member: 'ada@example.com', role: 'owner' });
    await gateway.admin({ command: 'key.create', projectId: 'acme', name: 'K'.repeat(200), member: OWNER });
    await page.goto(gateway.host.consoleSignInLink(OWNER));
    await page.locator('#who', { hasText: OWNER }).waitFor();
  }, 120_000);
  afterAll(async () => {
    await consoleBrowser?.close();
  });

  it('moves focus to the content with "Skip to content", staying on the page it is on', async () => {
    await page.evaluate(() => (location.hash = '#/projects/acme/keys'));
    await expect.poll(() => page.getByRole('heading', { level: 2, name: 'API keys' }).count()).toBe(1);
    await page.getByRole('link', { name: 'Skip to content' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('main');
    expect(page.url()).toMatch(/#\/projects\/acme\/keys$/);
    expect(await page.getByRole('heading', { level: 2, name: 'API keys' }).count()).toBe(1);
  });

  it("wraps a name of one long word, on a phone too, and keeps a long key name's row actions in view", async () => {
    await page.setViewportSize({ width: 375, height: 800 });
    try {
      await page.evaluate(() => (location.hash = '#/projects'));
      await expect.poll(heading).toBe('Projects');
      expect(await overflow()).toBeLessThanOrEqual(0);
      await page.evaluate(() => (location.hash = '#/projects/shared'));
      await expect.poll(heading).toBe(LONG_NAME);
      expect(await overflow()).toBeLessThanOrEqual(0);
    } finally {
      await page.setViewportSize({ width: 1280, height: 900 });
    }
    await page.evaluate(() => (location.hash = '#/projects/acme/keys'));
    const revoke = page.getByRole('button', { name: `Revoke the key ${'K'.repeat(200)}` });
    await expect.poll(() => revoke.count()).toBe(1);
    const box = await revoke.boundingBox();
    expect((box?.x ?? Number.POSITIVE_INFINITY) + (box?.width ?? 0)).toBeLessThanOrEqual(1280);
    await consoleBrowser.shoot('20-long-names');
  });

  it('asks an owner who makes themself a member to confirm, then shows the project as a member sees it', async () => {
    await page.evaluate(() => (location.hash = '#/projects/shared/members'));
    await expect.poll(() => page.getByRole('heading', { level: 2, name: 'Members' }).count()).toBe(1);
    await page.locator('#member-email').fill(` ${OWNER.toUpperCase()} `);
    await page.locator('#member-role').selectOption('member');
    await page.getByRole('button', { name: 'Add or change' }).click();
    await expect.poll(() => page.getByRole('dialog').count()).toBe(1);
    await page.getByRole('button', { name: 'Become a member' }).click();

    await expect.poll(() => page.locator('.project-header .badge').textContent()).toBe('member');
    expect(await page.getByRole('button', { name: 'Add or change' }).count()).toBe(0);
    expect(await page.getByRole('navigation', { name: 'Project sections' }).getByRole('link').allTextContents()).not.toContain('Audit trail');
    expect(await page.getByRole('status').textContent()).toBe(`${OWNER} is a member of the project.`);
  });

  it('says "signed out in another tab", not "expired", when another tab signs out', async () => {
    const other = await page.context().newPage();
    try {
      await other.goto(page.url());
      await expect.poll(() => other.locator('#who').textContent()).toBe(OWNER);
      await other.getByRole('button', { name: 'Sign out' }).click();
      await expect.poll(() => page.getByText('You signed out in another tab.').count()).toBe(1);
      expect(await page.getByText('Your session has expired').count()).toBe(0);
    } finally {
      await other.close();
    }
  });

  it('left no error uncaught', () => {
    expect(consoleBrowser.pageErrors).toEqual([]);
    expect(consoleBrowser.cspViolations).toEqual([]);
  });
});
