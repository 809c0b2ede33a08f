/**
 * The dashboard in a real browser against a real server: sign-in, the overview, creating a grid
 * bot with its preview, fills from posted ticks appearing as chart markers with the profit
 * following, actions with the API's errors shown where they belong, and a phone-width screen.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { postTicks } from '../support/api.ts';
import type { Credentials } from '../support/signing.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { browserMissing, launchBrowser, type WatchedPage, watchedPage } from './browser-kit.ts';

const missing = browserMissing();
if (missing) console.log(`# skipped: ${missing}`);

describe('dashboard in chromium', { skip: missing }, () => {
  let t: TestApp;
  let browser: Browser;
  let admin: Credentials;
  const pages: WatchedPage[] = [];
  /** A form names its account once the accounts are loaded; sent before, it would be refused. */
  const accountChosen = async (page: Page) =>
    page.waitForFunction((select) => (select as unknown as { value: string }).value !== '', await page.locator('#account_id').elementHandle());
  const open = async (viewport?: { width: number; height: number }) => {
    const watched = await watchedPage(browser, t.baseUrl, viewport);
    pages.push(watched);
    return watched;
  };
  const key = async (user: string, permissions: string[], signing: 'tl1' | '3commas') => {
    if (!(await t.core.users.findByName(user))) await t.core.users.create(user);
    const created = await t.core.apiKeys.create({ userName: user, name: 'dashboard', permissions: permissions as never, signing });
    return { apiKey: created.api_key, secret: created.secret! };
  };
  const signIn = async ({ page }: WatchedPage, credentials: { apiKey: string; secret: string }) => {
    await page.goto('/');
    await page.getByLabel('API key').fill(credentials.apiKey);
    await page.getByLabel('Secret').fill(credentials.secret);
    await page.getByRole('button', { name: 'Sign in' }).click();
  };
  const ticks = async (prices: string[], startAt?: number, pair = 'USDT_BTC') => {
    const response = await postTicks(
      t,
      admin,
      prices.map((price, index) => ({ pair, price, ...(startAt === undefined ? {} : { at: new Date(startAt + index * 20_000).toISOString() }) })),
    );
    assert.equal(response.status, 200, response.text);
  };

  before(async () => {
    t = await startTestApp();
    admin = await t.createKey({ user: 'operator', permissions: ['ADMIN'] });
    browser = await launchBrowser();
    // Forty minutes of history for the candles, three prices a minute, ending now.
    const history = Array.from({ length: 120 }, (_, i) => String(60000 + Math.round(Math.sin(i / 12) * 600 + ((i * 37) % 7) * 40 - 120)));
    await ticks(history, Date.now() - 40 * 60_000);
    assert.equal((await postTicks(t, admin, [{ pair: 'USDT_ETH', price: '3000', at: new Date(Date.now() - 30 * 60_000).toISOString() }])).status, 200);
  });

  after(async () => {
    await browser?.close();
    await t?.close();
  });

  it('signs in with a TL1 key, creates a grid bot and follows its fills on the chart', async () => {
    const watched = await open();
    const { page } = watched;
    const alice = await key('alice', ['BOTS_READ', 'BOTS_WRITE', 'ACCOUNTS_READ', 'ACCOUNTS_WRITE', 'SMART_TRADES_READ'], 'tl1');

    watched.expect(401, /permissions_info$/);
    await signIn(watched, { apiKey: alice.apiKey, secret: 'not-the-secret' });
    await page.getByRole('alert').filter({ hasText: 'The secret does not match this key' }).waitFor();
    watched.expectNoMore();

    await signIn(watched, alice);
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    await page.getByRole('combobox', { name: 'Refresh' }).selectOption('2000');
    await page.getByRole('article', { name: 'Paper trading account' }).getByText('USDT').first().waitFor();

    await page.getByRole('link', { name: 'New grid bot' }).first().click();
    await page.getByLabel('Lower price (USDT)').fill('59000');
    await page.getByLabel('Upper price (USDT)').fill('61000');
    await page.getByLabel('Lines', { exact: true }).fill('5');
    await page.getByLabel('Amount per line (BTC)').fill('0.00000001');
    await page.getByTestId('preview-required').getByText('Sell lines').waitFor();
    watched.expect(400, /grid_bots\/manual$/);
    await page.getByRole('button', { name: 'Create and start' }).click();
    const amountError = page.locator('#quantity_per_grid-error');
    await amountError.waitFor();
    assert.match(await amountError.innerText(), /\S/);
    assert.equal(await page.getByLabel('Amount per line (BTC)').getAttribute('aria-invalid'), 'true');
    watched.expectNoMore();
    await page.getByLabel('Amount per line (BTC)').fill('0.01');
    await watched.screenshot('grid-bot-form');
    await page.getByRole('button', { name: 'Create and start' }).click();
    await page.waitForURL(/#\/grid-bots\/\d+$/);
    const chart = page.getByRole('figure', { name: 'USDT_BTC candles' }).locator('.chart-canvas');
    await page.waitForFunction((element) => Number(element!.getAttribute('data-candles')) > 30, await chart.elementHandle());
    assert.equal(await page.getByTestId('grid-cycles').innerText(), '0');
    assert.equal(await chart.getAttribute('data-fills'), '0');

    // Down through two buy lines and back up through the sell lines: fills, then completed cycles.
    await ticks(['59400', '58900', '59600', '60100', '60600', '61100']);
    await page.waitForFunction((element) => Number(element!.getAttribute('data-fills')) >= 4, await chart.elementHandle());
    await page.getByTestId('grid-cycles').filter({ hasNotText: /^0$/ }).waitFor();
    assert.match(await page.getByTestId('grid-profit').innerText(), /^[1-9][\d.,]* USDT$/);
    await page.getByRole('region', { name: 'Recent fills' }).getByText('BUY').first().waitFor();
    await watched.screenshot('grid-bot');

    await page.getByRole('button', { name: 'Disable' }).click();
    await page.getByRole('button', { name: 'Enable' }).waitFor();
    // Until the bot's settings are in, the form takes no input that they would overwrite.
    let release!: () => void;
    const settingsHeld = new Promise<void>((resolve) => (release = resolve));
    const botSettings = /\/public\/api\/ver1\/grid_bots\/\d+$/;
    await page.route(botSettings, async (route) => {
      if (route.request().method() === 'GET') await settingsHeld;
      await route.continue();
    });
    await page.getByRole('link', { name: 'Edit' }).click();
    await page.getByRole('heading', { name: /^Edit grid bot #\d+$/ }).waitFor();
    assert.equal(await page.getByLabel('Lines', { exact: true }).isDisabled(), true);
    release();
    await page.getByLabel('Lines', { exact: true }).fill('1');
    await page.unroute(botSettings);
    watched.expect(400, /grid_bots\/\d+\/manual$/);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.locator('#grids_quantity-error').waitFor();
    watched.expectNoMore();
    await watched.screenshot('grid-bot-edit-error');

    await page.getByRole('link', { name: 'Overview' }).click();
    await page.getByRole('region', { name: /Grid bots/ }).getByRole('link', { name: 'USDT_BTC Grid Bot' }).waitFor();
    await page.getByRole('region', { name: 'Profit' }).getByText('Total').waitFor();
    await watched.screenshot('overview');
    assert.deepEqual(watched.problems, []);
  });

  it('creates a DCA bot and a SmartTrade and shows their deal and targets on the chart', async () => {
    const watched = await open();
    const { page } = watched;
    await signIn(watched, await key('bob', ['BOTS_READ', 'BOTS_WRITE', 'ACCOUNTS_READ', 'SMART_TRADES_READ', 'SMART_TRADES_WRITE'], 'tl1'));
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    await page.getByRole('combobox', { name: 'Refresh' }).selectOption('2000');

    await page.getByRole('link', { name: 'New DCA bot' }).first().click();
    await accountChosen(page);
    await page.getByLabel('Take profit %').fill('2');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL(/#\/dca-bots\/\d+$/);
    await page.getByRole('button', { name: 'Enable' }).click();
    await page.getByRole('region', { name: 'Deals' }).getByRole('link', { name: /^#\d+$/ }).click();
    await page.waitForURL(/#\/deals\/\d+$/);
    await page.getByRole('cell', { name: 'Base' }).waitFor();
    await ticks(['2960'], undefined, 'USDT_ETH');
    await page.getByRole('cell', { name: 'Safety' }).first().waitFor();
    await page.getByRole('row').filter({ hasText: 'Safety' }).filter({ hasText: 'Filled' }).waitFor();
    await watched.screenshot('deal');
    await page.getByRole('link', { name: 'USDT_ETH DCA' }).click();
    await page.getByRole('region', { name: 'Deals' }).getByRole('cell', { name: 'Active' }).waitFor();
    await watched.screenshot('dca-bot');

    await page.getByRole('link', { name: 'New SmartTrade' }).first().click();
    await accountChosen(page);
    await page.getByLabel('Units (BTC)').fill('0');
    await page.getByLabel('Take profit at (USDT)').fill('62000');
    await page.getByLabel('Stop loss at (USDT)').fill('58000');
    watched.expect(400, /smart_trades$/);
    await page.getByRole('button', { name: 'Place SmartTrade' }).click();
    assert.equal(await page.locator('[id="position[units][value]-error"]').innerText(), 'must be greater than 0');
    watched.expectNoMore();
    await page.getByLabel('Units (BTC)').fill('0.002');
    await page.getByLabel('Trailing stop loss').check();
    await page.getByRole('button', { name: 'Place SmartTrade' }).click();
    await page.waitForURL(/#\/smart-trades\/\d+$/);
    await page.getByText('Waiting Targets').first().waitFor();
    await watched.screenshot('smart-trade');
    await page.getByRole('button', { name: 'Close at market' }).click();
    await page.getByText('Closed at Market Price').first().waitFor();
    assert.deepEqual(watched.problems, []);
  });

  it('lets a default 3Commas key in and says which permission a read-only key lacks', async () => {
    const watched = await open({ width: 390, height: 844 });
    const { page } = watched;
    const viewer = await key('alice', ['BOTS_READ', 'ACCOUNTS_READ'], '3commas');
    // The TL1 attempt comes first and is refused for a 3Commas key.
    watched.expect(401, /permissions_info$/);
    await signIn(watched, viewer);
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    watched.expectNoMore();
    await page.getByRole('region', { name: /Grid bots/ }).getByRole('link', { name: 'USDT_BTC Grid Bot' }).click();
    await page.getByTestId('grid-cycles').waitFor();
    watched.expect(403, /enable$/);
    await page.getByRole('button', { name: 'Enable' }).click();
    await page.getByRole('alert').filter({ hasText: 'This key lacks the BOTS_WRITE permission' }).waitFor();
    watched.expectNoMore();
    await watched.screenshot('grid-bot-phone');
    assert.deepEqual(watched.problems, []);
  });

  it('says when the server cannot be reached, keeps what it showed, and recovers', async () => {
    const watched = await open();
    const { page } = watched;
    await signIn(watched, await key('carol', ['BOTS_READ', 'ACCOUNTS_READ'], 'tl1'));
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    await page.getByText(/^Updated /).waitFor();
    // A faster refresh keeps what the page shows: the server goes away right after the choice.
    await page.getByRole('combobox', { name: 'Refresh' }).selectOption('2000');
    watched.expect(0, /^\/public\/api\//);
    // The server stays up; the browser's calls to it fail as if it were down.
    await page.route('**/public/api/**', (route) => route.abort('connectionrefused'));
    await page.getByRole('status').filter({ hasText: /^Stale since .*: the server is unreachable/ }).waitFor();
    assert.equal(await page.getByRole('article', { name: 'Paper trading account' }).isVisible(), true);
    await page.unroute('**/public/api/**');
    await page.getByText(/^Updated /).waitFor();
    watched.expectNoMore();
    assert.deepEqual(watched.problems, []);
  });

  it('keeps the first load under 500 KB compressed', async () => {
    const html = await fetch(`${t.baseUrl}/`, { headers: { 'accept-encoding': 'br' } });
    const page = await html.text();
    let total = Number(html.headers.get('content-length') ?? page.length);
    assert.equal(html.headers.get('content-encoding'), 'br');
    const assets = [...page.matchAll(/(?:src|href)="(\/[^"]+)"/g)].map((match) => match[1]!);
    for (const asset of assets) {
      const response = await fetch(`${t.baseUrl}${asset}`, { headers: { 'accept-encoding': 'br' } });
      assert.equal(response.status, 200, asset);
      total += Number(response.headers.get('content-length'));
      await response.arrayBuffer();
    }
    console.log(`# dashboard first load: ${(total / 1024).toFixed(1)} KB compressed (brotli) in ${assets.length + 1} files`);
    assert.ok(total < 500 * 1024, `${total} bytes`);
  });
});
