import { readFile } from 'node:fs/promises';
import { AuthenticationError } from 'openai';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { MAX_EXPORTED_ROWS } from '../../shared/console/project-usage.ts';
import { describeInChromium } from '../support/chromium.ts';
import { CONSOLE_OWNER as OWNER, startConsoleBrowser, type ConsoleBrowser } from '../support/console-browser.ts';
import { sampleRecord, writeUsageFiles } from '../support/sample-usage-record.ts';
import type { TestGateway } from '../support/test-gateway.ts';

await describeInChromium('the console in a browser, as a project owner', () => {
  let consoleBrowser: ConsoleBrowser;
  let gateway: TestGateway;
  let page: Page;
  let secret = '';
  let requestId = '';
  const shoot = (name: string) => consoleBrowser.shoot(name);
  const openSection = (name: string) => consoleBrowser.openSection(name);

  beforeAll(async () => {
    consoleBrowser = await startConsoleBrowser();
    ({ gateway, page } = consoleBrowser);
  }, 120_000);
  afterAll(async () => {
    await consoleBrowser?.close();
  });

  it('signs in with the one-time link and lists my projects with my role', async () => {
    const response = await page.goto(gateway.host.consoleSignInLink(OWNER));
    expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");

    await expect.poll(() => page.getByRole('heading', { level: 1, name: 'Projects' }).count()).toBe(1);
    expect(page.url()).toMatch(/\/console\/#\/projects$/);
    await expect.poll(() => page.locator('#who').textContent()).toBe(OWNER);
    expect(await page.locator('.project-card').allTextContents()).toEqual(['Acmeacmeowner', 'Research labresearchmember']);
    await shoot('01-projects');
  });

  it('opens a project', async () => {
    await page.getByRole('link', { name: /Acme/ }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1, name: 'Acme' }).count()).toBe(1);
    await shoot('02-project-overview');
  });

  it('creates a member key, shows its secret once with a copy button, then removes it from the page', async () => {
    await openSection('API keys');
    await page.getByLabel('Name of the new key').fill('browser test');
    await page.getByRole('button', { name: 'Create key' }).click();
    const secretField = page.locator('#new-key-secret');
    await expect.poll(() => secretField.count()).toBe(1);
    secret = await secretField.inputValue();
    expect(secret).toMatch(/^gw\.[0-9A-Za-z]{43}$/);
    await expect.poll(() => page.getByRole('cell', { name: 'browser test', exact: true }).count()).toBe(1);
    await page.getByRole('button', { name: 'Copy' }).click();
    await shoot('03-keys-new-secret');

    await page.getByRole('button', { name: 'Done' }).click();
    await expect.poll(() => secretField.count()).toBe(0);
    expect(await page.content()).not.toContain(secret);
    const row = page.getByRole('row', { name: /browser test/ });
    expect(await row.textContent()).toContain(`${secret.slice(0, 7)}…${secret.slice(-4)}`);
    expect(await row.textContent()).toContain(OWNER);
  });

  it('the key works on /v1/chat/completions, and its last use shows once the usage is written', async () => {
    const { data, response } = await gateway
      .openai(secret)
      .chat.completions.create({ model: 'echo', messages: [{ role: 'user', content: 'Hello from the console test' }] })
      .withResponse();
    expect(data.choices[0]?.message.content).toBe('[offline mock echo] You said: Hello from the console test');
    requestId = response.headers.get('x-request-id') ?? '';
    expect(requestId).not.toBe('');
    await gateway.host.drainUsage();

    await page.reload();
    await expect.poll(async () => (await page.getByRole('row', { name: /browser test/ }).textContent()) ?? '').toMatch(/\d{4}-\d\d-\d\d\s\d\d:\d\d\sUTC.*\d{4}-\d\d-\d\d\s\d\d:\d\d\sUTC/);
    await shoot('04-keys');
  });

  it('shows the request in usage, as charts and top requests, and downloads the rows as CSV', async () => {
    await openSection('Usage');
    await expect.poll(() => page.getByRole('cell', { name: requestId }).count()).toBe(1);
    // The key by its name, its id below (and as the tooltip), where the page lists it among the project's keys.
    const { keys } = await gateway.admin<{ keys: Array<{ id: string; name: string }> }>({ command: 'key.list', projectId: 'acme' });
    const keyId = keys.find((key) => key.name === 'browser test')?.id ?? '';
    const keyCell = page.getByRole('row', { name: new RegExp(requestId) }).getByRole('cell').nth(3);
    expect(await keyCell.textContent()).toBe(`browser test${keyId}`);
    expect(await keyCell.locator('[title]').getAttribute('title')).toBe(keyId);
    expect(await page.locator('.stat', { hasText: 'Requests' }).textContent()).toContain('1');
    expect(await page.getByRole('img', { name: 'Cost by day' }).count()).toBe(1);
    expect(await page.getByRole('img', { name: 'Cost by model' }).textContent()).toContain('mock/echo');
    await shoot('05-usage');

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^usage-acme-\d{4}-\d\d-\d\d-to-\d{4}-\d\d-\d\d\.csv$/);
    const csv = await readFile((await download.path()) ?? '', 'utf8');
    expect(csv.split('\r\n')[0]).toMatch(/^record_id,id,project_id,key_id,/);
    expect(csv).toContain(requestId);
  });

  it('says what is wrong with a range beside the form, recovers from a refusal, and shows usage again', async () => {
    const from = page.getByLabel('From (UTC)');
    const to = page.getByLabel('To (UTC)');
    const [today, monthAgo] = [await to.inputValue(), await from.inputValue()];
    const alert = page.locator('.usage-results').getByRole('alert');
    await from.fill('2026-11-24');
    await to.fill('2026-11-01');
    expect(await to.getAttribute('min')).toBe('2026-11-24');
    expect(await to.getAttribute('max')).toBe('2027-11-24');
    await page.getByRole('button', { name: 'Show' }).click();
    await expect.poll(() => alert.textContent()).toBe('"from" (2026-11-24) is after "to" (2026-11-01).');
    expect(await page.getByRole('cell', { name: requestId }).count()).toBe(0);
    await shoot('05b-usage-bad-range');

    // A refusal of the API (here a stand-in) is said in place too: never "Loading usage…" for good.
    await page.route('**/api/projects/acme/usage?*', (route) => route.fulfill({ status: 400, json: { error: { code: 'invalid_range', message: 'Refused by the API.' } } }), { times: 1 });
    await from.fill(monthAgo);
    await to.fill(today);
    await page.getByRole('button', { name: 'Show' }).click();
    await expect.poll(() => alert.textContent()).toBe('Refused by the API.');
    expect(await page.getByText('Loading usage…').count()).toBe(0);

    await page.getByRole('button', { name: 'Show' }).click();
    await expect.poll(() => page.getByRole('cell', { name: requestId }).count()).toBe(1);
    expect(await alert.count()).toBe(0);
  });

  it("keeps the charts' text at the page's size on a phone and on a wide screen", async () => {
    const textHeights = () => page.locator('.chart-svg text').evaluateAll((texts) => texts.map((text) => Math.round(text.getBoundingClientRect().height)));
    for (const width of [375, 1920]) {
      await page.setViewportSize({ width, height: 900 });
      await expect.poll(async () => Math.min(...(await textHeights()))).toBeGreaterThanOrEqual(12);
      expect(Math.max(...(await textHeights()))).toBeLessThanOrEqual(20);
      await shoot(`05c-usage-${width}`);
    }
    await page.setViewportSize({ width: 1280, height: 860 });
  });

  it('adds up and shows costs and tokens beyond 2^53 exactly', async () => {
    // Two records of about 5 million USD each, on a day of their own: their sum is no JSON number.
    await writeUsageFiles(gateway.dataDir, [
      sampleRecord({ projectId: 'acme', model: 'mock/echo', costNanos: 5_000_000_000_000_001, promptTokens: 5_000_000_000_000_001, completionTokens: 0, createdAt: '2025-02-01T08:00:00.000Z' }),
      sampleRecord({ projectId: 'acme', model: 'mock/echo', costNanos: 5_000_000_000_000_002, promptTokens: 5_000_000_000_000_002, completionTokens: 0, createdAt: '2025-02-01T09:00:00.000Z' }),
    ]);
    await page.getByLabel('From (UTC)').fill('2025-02-01');
    await page.getByLabel('To (UTC)').fill('2025-02-01');
    await page.getByRole('button', { name: 'Show' }).click();
    await expect.poll(() => page.locator('.stat', { hasText: 'Cost' }).locator('dd').textContent()).toBe('$10000000.000000003');
    expect(await page.locator('.stat', { hasText: 'Tokens' }).locator('dd').textContent()).toBe('10,000,000,000,000,003');
    expect(await page.getByRole('img', { name: 'Cost by model' }).textContent()).toContain('$10000000.000000003');
    await shoot('05d-usage-beyond-2-53');
  });

  it('says so when a downloaded CSV holds only the first rows of the range', async () => {
    const day = '2025-01-15';
    const records = Array.from({ length: MAX_EXPORTED_ROWS + 1 }, (_, index) =>
      sampleRecord({ projectId: 'acme', model: 'mock/echo', createdAt: new Date(Date.parse(`${day}T00:00:00.000Z`) + index * 1000).toISOString() }),
    );
    await writeUsageFiles(gateway.dataDir, records);
    await page.getByLabel('From (UTC)').fill(day);
    await page.getByLabel('To (UTC)').fill(day);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
    const csv = await readFile((await download.path()) ?? '', 'utf8');
    expect(csv.trimEnd().split('\r\n')).toHaveLength(MAX_EXPORTED_ROWS + 1);
    await expect
      .poll(() => page.locator('#status').textContent())
      .toBe(`Downloaded usage-acme-${day}-to-${day}.csv: it holds only the first ${MAX_EXPORTED_ROWS} rows of the range. Choose fewer days for the rest.`);
  });

  it('lets an owner allow a model with its prices', async () => {
    await openSection('Models');
    // A refusal is said in the status line (and is no uncaught error: see the last test).
    await page.getByLabel('Model', { exact: true }).fill('nope/model');
    await page.getByRole('button', { name: 'Allow model' }).click();
    await expect.poll(() => page.locator('#status').textContent()).toContain('Provider "nope" is not configured on "acme"');
    await page.getByLabel('Model', { exact: true }).fill('mock/second');
    await page.getByLabel('Alias').fill('second');
    await page.getByLabel('Input price', { exact: true }).fill('0.8');
    await page.getByLabel('Output price').fill('4');
    await page.getByLabel('Cached input price').fill('0.08');
    await page.getByLabel('Cache write price (5 min)').fill('1');
    await page.getByLabel('Cache write price (1 h)').fill('1.6x');
    await page.getByRole('button', { name: 'Allow model' }).click();
    // A cache price is read as the others are, and refused in the same words.
    await expect.poll(() => page.locator('#status').textContent()).toBe('Prices are USD per million tokens, e.g. 0.15 (at most 3 decimals, at most 100,000).');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('model-cache-write-1h-price');
    await page.getByLabel('Cache write price (1 h)').fill('1.6');
    await page.getByRole('button', { name: 'Allow model' }).click();
    const row = page.getByRole('row', { name: /mock\/second/ });
    await expect.poll(() => row.count()).toBe(1);
    expect(await row.locator('td').allTextContents()).toEqual(['mock/second', 'second', '$0.8', '$4', '$0.08', '$1', '$1.6', 'project', 'Remove']);
    // A model priced without them shows what the gateway bills instead, and why.
    const echo = page.getByRole('row', { name: /mock\/echo/ });
    expect((await echo.locator('td').allTextContents()).slice(4, 7)).toEqual([
      '$0.15default: the input price',
      '$0.15default: the input price',
      '$0.3default: 2× the input price',
    ]);
    // Its long-context tier, under the input and output prices: the prices billed above the tier's prompt size.
    expect((await echo.locator('td').allTextContents()).slice(2, 4)).toEqual(['$0.15$0.3 above 200K tokens', '$0.6$0.9 above 200K tokens']);
    await shoot('06-models');
  });

  it('lets an owner set a provider key that is never shown back', async () => {
    await openSection('Providers');
    await page.getByLabel('Provider', { exact: true }).fill('openai');
    await page.getByLabel('API key').fill('sk-console-test-upstream-key-0123456789');
    await page.getByRole('button', { name: 'Save provider' }).click();
    const row = page.getByRole('row', { name: /^openai openai/ });
    await expect.poll(() => row.count()).toBe(1);
    expect(await row.textContent()).toContain('https://api.openai.com/v1');
    expect(await row.textContent()).toContain('set');
    expect(await page.getByLabel('API key').inputValue()).toBe('');
    expect(await page.content()).not.toContain('sk-console-test-upstream-key');
    await shoot('07-providers');

    // Only the base URL, on the same host: the stored key stays.
    await page.getByLabel('Provider', { exact: true }).fill('openai');
    await page.getByLabel('Base URL').fill('https://api.openai.com/v2');
    await page.getByRole('button', { name: 'Save provider' }).click();
    await expect.poll(async () => (await row.textContent()) ?? '').toContain('https://api.openai.com/v2');
    expect(await row.textContent()).toContain('set');
    expect(await page.locator('#status').textContent()).toMatch(/^openai saved at .*\. Its stored key is kept\.$/);
    await shoot('07b-providers-base-url');
  });

  it('shows the members and the audit trail of who did what', async () => {
    await openSection('Members');
    await expect.poll(() => page.getByRole('cell', { name: 'max@example.com', exact: true }).count()).toBe(1);
    await shoot('08-members');

    await openSection('Audit trail');
    const rows = page.getByRole('row', { name: new RegExp(OWNER) });
    await expect.poll(() => rows.count()).toBeGreaterThanOrEqual(3);
    const text = await page.locator('table').textContent();
    expect(text).toContain('key.create');
    expect(text).toContain('provider.set');
    expect(text).toContain('apiKey: (set)');
    expect(text).not.toContain('sk-console-test-upstream-key');
    await shoot('09-audit');
  });

  it('revokes the key with the keyboard alone, and the key then gets 401', async () => {
    await openSection('API keys');
    await page.getByRole('button', { name: /Revoke the key browser test/ }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog');
    await expect.poll(() => dialog.count()).toBe(1);
    await shoot('10-keys-revoke-dialog');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await page.getByRole('row', { name: /browser test/ }).textContent()) ?? '').toContain('revoked');

    const refused = await gateway
      .openai(secret)
      .chat.completions.create({ model: 'echo', messages: [{ role: 'user', content: 'Still there?' }] })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AuthenticationError);
    expect((refused as AuthenticationError).status).toBe(401);
  });

  it('says in words that the API cannot be reached, rather than "Failed to fetch"', async () => {
    await page.route('**/api/projects/acme/keys', (route) => route.abort('connectionrefused'), { times: 1 });
    await page.getByLabel('Name of the new key').fill('while offline');
    await page.getByRole('button', { name: 'Create key' }).click();
    await expect.poll(() => page.locator('#status').textContent()).toBe(
      'The console API could not be reached: check the connection (or that the gateway is running), then try again.',
    );
    expect(await page.locator('#new-key-secret').count()).toBe(0);
    await shoot('10b-keys-api-unreachable');
  });

  it('signs out, after which the session and the used link no longer work', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect.poll(() => page.getByText('You are signed out.').count()).toBe(1);
    const me = await page.evaluate(async () => (await fetch('api/me')).status);
    expect(me).toBe(401);
    await shoot('11-signed-out');
  });

  it('refuses a sign-in link that was already used', async () => {
    const link = gateway.host.consoleSignInLink(OWNER);
    await page.goto(link);
    await expect.poll(() => page.locator('#who').textContent()).toBe(OWNER);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.goto('about:blank');
    await page.goto(link);
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('already used or has expired');
  });

  it('ran without a Content-Security-Policy violation', () => {
    expect(consoleBrowser.cspViolations).toEqual([]);
  });

  it('left no error uncaught: refusals and an unreachable API are said on the page, not thrown into the browser console', () => {
    expect(consoleBrowser.pageErrors).toEqual([]);
  });
});
