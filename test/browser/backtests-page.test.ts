/**
 * The dashboard's backtests page in a real browser: the API's refusals shown beside the fields they
 * name, a backtest started from the form and followed until it finishes, and its report (figures,
 * every fill on the chart, equity and drawdown) matching the stored result.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { browserMissing, launchBrowser, watchedPage } from './browser-kit.ts';

const missing = browserMissing();
if (missing) console.log(`# skipped: ${missing}`);

describe('backtests page in chromium', { skip: missing }, () => {
  let t: TestApp;
  let browser: Browser;

  before(async () => {
    t = await startTestApp();
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    await t?.close();
  });

  it('starts a grid backtest from the form, follows it and shows its report', async () => {
    const watched = await watchedPage(browser, t.baseUrl);
    const { page } = watched;
    const credentials = await t.createKey({ user: 'dora', permissions: ['BOTS_READ', 'BOTS_WRITE'] });
    await page.goto('/');
    // A 3Commas key: the dashboard's TL1 attempt comes first and is refused.
    watched.expect(401, /permissions_info$/);
    await page.getByLabel('API key').fill(credentials.apiKey);
    await page.getByLabel('Secret').fill(credentials.secret);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    watched.expectNoMore();
    await page.getByRole('combobox', { name: 'Refresh' }).selectOption('2000');
    await page.getByRole('link', { name: 'Backtests' }).click();
    await page.getByText('No backtests yet.').waitFor();

    // Refused before any job exists: a period outside the data, then the grid's own settings.
    const from = page.getByLabel('From');
    await from.fill('2010-01-01');
    watched.expect(400, /ext\/backtests$/);
    await page.getByRole('button', { name: 'Run backtest' }).click();
    await page.locator('#from-error').waitFor();
    assert.equal(await from.getAttribute('aria-invalid'), 'true');
    await from.fill('2019-01-01');
    const settings = page.getByLabel('Settings (the body of the create endpoint)');
    await settings.fill(JSON.stringify({ lower_price: '3300', upper_price: '4500', grids_quantity: 'many', quantity_per_grid: '0.01' }));
    await page.getByRole('button', { name: 'Run backtest' }).click();
    await page.getByRole('alert').filter({ hasText: 'grids_quantity: is invalid' }).waitFor();
    await settings.fill('{ not json');
    await page.getByRole('button', { name: 'Run backtest' }).click();
    await page.locator('#settings-error').filter({ hasText: 'must be a JSON object' }).waitFor();
    watched.expectNoMore();
    await watched.screenshot('backtest-form-errors');

    await page.getByLabel('To (included)').fill('2019-01-20');
    await page.getByLabel('Kind').selectOption('dca');
    await page.getByLabel('Kind').selectOption('grid');
    assert.match(await settings.inputValue(), /"grids_quantity": 20/);
    await page.getByRole('button', { name: 'Run backtest' }).click();
    await page.waitForURL(/#\/backtests\/\d+$/);
    const id = Number(/(\d+)$/.exec(page.url())![1]);
    await page.getByText('finished', { exact: true }).waitFor();

    const stored = (await t.request({ path: `/ext/backtests/${id}`, credentials })).body;
    const fills: unknown[] = stored.result.fills;
    assert.ok(fills.length > 10, `${fills.length} fills`);
    const chart = page.getByRole('figure', { name: 'USDT_BTC backtest chart' }).locator('.chart-canvas');
    await page.waitForFunction((element) => Number(element!.getAttribute('data-candles')) > 0, await chart.elementHandle());
    assert.equal(await chart.getAttribute('data-fills'), String(fills.length));
    assert.equal(await chart.getAttribute('data-candles'), String(stored.result.candles));
    assert.equal(
      await page.getByRole('figure', { name: 'Equity curve' }).locator('.chart-canvas').getAttribute('data-points'),
      String(stored.result.series.equity.length),
    );
    const netProfit = Number(stored.result.figures.net_profit).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    assert.equal(await page.getByTestId('net-profit').innerText(), `${netProfit} USDT`);
    await page.getByRole('region', { name: 'Fills' }).getByRole('cell', { name: /^(buy|sell)$/ }).first().waitFor();
    await watched.screenshot('backtest-report');

    await page.getByRole('link', { name: 'All backtests' }).click();
    await page.getByRole('link', { name: `#${id}` }).waitFor();
    await page.getByRole('row').filter({ hasText: 'finished' }).waitFor();
    assert.deepEqual(watched.problems, []);
  });
});
