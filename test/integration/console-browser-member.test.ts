import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeInChromium } from '../support/chromium.ts';
import { CONSOLE_MEMBER as MEMBER, CONSOLE_OWNER, startConsoleBrowser, type ConsoleBrowser } from '../support/console-browser.ts';
import type { TestGateway } from '../support/test-gateway.ts';

/** What a project's member (not an owner) sees in the console; the owner's pages: console-browser.test.ts. */
await describeInChromium('the console in a browser, as a member', () => {
  let consoleBrowser: ConsoleBrowser;
  let gateway: TestGateway;
  let page: Page;
  const shoot = (name: string) => consoleBrowser.shoot(name);
  const openSection = (name: string) => consoleBrowser.openSection(name);

  beforeAll(async () => {
    consoleBrowser = await startConsoleBrowser();
    ({ gateway, page } = consoleBrowser);
    // The owner's key, which a member must not see, and a request on it, so the overview has figures.
    const { key } = await gateway.admin<{ key: string }>({ command: 'key.create', projectId: 'acme', name: 'browser test', member: CONSOLE_OWNER });
    await gateway.openai(key).chat.completions.create({ model: 'echo', messages: [{ role: 'user', content: 'Hello from the console test' }] });
    await gateway.host.drainUsage();
  }, 120_000);
  afterAll(async () => {
    await consoleBrowser?.close();
  });

  it("shows a member the project without its owners' keys, settings forms or audit trail", async () => {
    await page.goto(gateway.host.consoleSignInLink(MEMBER));
    await expect.poll(() => page.locator('#who').textContent()).toBe(MEMBER);
    await page.getByRole('link', { name: /Acme/ }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1, name: 'Acme' }).count()).toBe(1);
    // Every figure fits its card, however many decimals a small cost has.
    const overflowing = await page.locator('.stat dd').evaluateAll((figures) => figures.filter((figure) => figure.scrollWidth > figure.clientWidth).map((figure) => figure.textContent));
    expect(overflowing).toEqual([]);
    await shoot('12-member-overview');
    const tabs = await page.getByRole('navigation', { name: 'Project sections' }).getByRole('link').allTextContents();
    expect(tabs).not.toContain('Audit trail');

    await openSection('API keys');
    await expect.poll(() => page.getByText('You have no API keys in this project yet.').count()).toBe(1);
    expect(await page.content()).not.toContain('browser test');
    await openSection('Providers');
    expect(await page.getByRole('button', { name: 'Save provider' }).count()).toBe(0);
    await shoot('12-member-view');
  });

  it("shows a project the person may not open as such, never the previous project's page", async () => {
    const heading = () => page.getByRole('heading', { level: 1 }).textContent();
    await page.evaluate(() => (location.hash = '#/projects/research/keys'));
    await expect.poll(heading).toBe('No access to this project');
    expect(await page.getByRole('alert').textContent()).toBe('You are not a member of the project "research".');
    expect(await page.getByRole('button', { name: 'Create key' }).count()).toBe(0);
    expect(await page.getByRole('navigation', { name: 'Breadcrumb' }).textContent()).toBe('Projects / research');
    expect(await page.title()).toBe('No access to this project · Model gateway console');
    await shoot('13-no-access');

    await page.reload();
    await expect.poll(() => page.locator('#who').textContent()).toBe(MEMBER);
    await expect.poll(heading).toBe('No access to this project');
    expect(await page.getByText('sign in with the one-time link').count()).toBe(0);

    await page.evaluate(() => (location.hash = '#/projects/%E0%A4%A'));
    await expect.poll(heading).toBe('Not a console address');
    expect(await page.content()).not.toContain('URI malformed');
    await page.getByRole('link', { name: 'Back to your projects' }).click();
    await expect.poll(heading).toBe('Projects');
  });

  it("tells a member who opens the audit trail's address that it is for owners", async () => {
    await page.evaluate(() => (location.hash = '#/projects/acme/audit'));
    await expect.poll(() => page.getByText("The audit trail is for the project's owners: here is the overview.").count()).toBe(1);
  });

  it('moves focus to the page on navigation without drawing a focus ring around it', async () => {
    await page.keyboard.press('Tab');
    await page.evaluate(() => (location.hash = '#/projects/acme/usage'));
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('main');
    expect(await page.evaluate(() => getComputedStyle(document.getElementById('main') as HTMLElement).outlineStyle)).toBe('none');
  });

  it('lets a member disable their own key, which is then refused with 403, and enable it again', async () => {
    await page.evaluate(() => (location.hash = '#/projects/acme/keys'));
    await page.getByLabel('Name of the new key').fill('member laptop');
    await page.getByRole('button', { name: 'Create key' }).click();
    const secretField = page.locator('#new-key-secret');
    await expect.poll(() => secretField.count()).toBe(1);
    const secret = await secretField.inputValue();
    await page.getByRole('button', { name: 'Done' }).click();
    const row = page.getByRole('row', { name: /member laptop/ });
    const ask = () => gateway.openai(secret).chat.completions.create({ model: 'echo', messages: [{ role: 'user', content: 'Still allowed?' }] });

    await page.getByRole('button', { name: /Disable the key member laptop/ }).click();
    await expect.poll(async () => (await row.textContent()) ?? '').toContain('disabled');
    expect(await page.locator('#status').textContent()).toBe('The key member laptop is disabled.');
    expect(await page.getByRole('button', { name: /Enable the key member laptop/ }).count()).toBe(1);
    await shoot('12-member-key-disabled');
    expect(((await ask().catch((error: unknown) => error)) as { status?: number }).status).toBe(403);

    await page.getByRole('button', { name: /Enable the key member laptop/ }).click();
    await expect.poll(async () => (await row.textContent()) ?? '').toContain('active');
    expect((await ask()).choices[0]?.message.content).toContain('Still allowed?');
  });

  it('offers a member no Enable for their key an owner disabled, and names who did', async () => {
    await page.evaluate(() => (location.hash = '#/projects/acme/keys'));
    await page.getByLabel('Name of the new key').fill('member tablet');
    await page.getByRole('button', { name: 'Create key' }).click();
    await expect.poll(() => page.locator('#new-key-secret').count()).toBe(1);
    await page.getByRole('button', { name: 'Done' }).click();
    const keys = await gateway.admin<{ keys: { id: string; name: string }[] }>({ command: 'key.list', projectId: 'acme' });
    const tablet = keys.keys.find((key) => key.name === 'member tablet');
    await gateway.admin({ command: 'key.update', projectId: 'acme', keyId: tablet?.id, enabled: false });

    await page.evaluate(() => (location.hash = '#/projects/acme'));
    await page.evaluate(() => (location.hash = '#/projects/acme/keys'));
    const row = page.getByRole('row', { name: /member tablet/ });
    await expect.poll(async () => (await row.textContent()) ?? '').toContain('disabled by admin CLI');
    expect(await page.getByRole('button', { name: /Enable the key member tablet/ }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /Revoke the key member tablet/ }).count()).toBe(1);
  });

  it('signs the top bar out too when the session ends in the middle of use', async () => {
    await page.evaluate(() => (location.hash = '#/projects/acme'));
    await expect.poll(() => page.getByRole('heading', { level: 1, name: 'Acme' }).count()).toBe(1);
    // The session ends on the server (as when it expires): the page learns it from the next call's 401.
    await page.evaluate(async () => {
      const { token } = JSON.parse(localStorage.getItem('gateway-console-session') ?? '{}') as { token: string };
      await fetch('api/session', { method: 'DELETE', headers: { authorization: `Bearer ${token}` } });
    });
    await page.getByRole('navigation', { name: 'Project sections' }).getByRole('link', { name: 'API keys' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Sign in to use the console.');
    expect(await page.locator('#who').textContent()).toBe('');
    expect(await page.getByRole('button', { name: 'Sign out' }).count()).toBe(0);
    await shoot('14-member-session-ended');
  });

  it('ran without a Content-Security-Policy violation', () => {
    expect(consoleBrowser.cspViolations).toEqual([]);
  });

  it('left no error uncaught', () => {
    expect(consoleBrowser.pageErrors).toEqual([]);
  });
});
