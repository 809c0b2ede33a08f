/**
 * The backtest report as people open it: in Debian's chromium (through playwright-core, never a
 * downloaded browser), from the file alone. It must draw without console errors and mark every
 * fill. Without chromium the test is skipped with the reason, except in CI, where it fails.
 * A screenshot of each report is left in .cache/ to look at.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { prepareBacktest } from '../../src/backtest/backtest-request.ts';
import { shippedCandles } from '../../src/backtest/candle-series.ts';
import { renderReport } from '../../src/backtest/html-report.ts';
import { runBacktest } from '../../src/backtest/runner.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

function browserMissing(): string | false {
  if (fs.existsSync(CHROMIUM)) return false;
  const reason = `${CHROMIUM} is missing: install Debian's chromium package (apt-get install -y chromium) to run the browser tests`;
  if (process.env.CI === 'true') throw new Error(reason);
  return reason;
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tradeloop-report-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

const RUNS = {
  grid: { lower_price: '3300', upper_price: '4500', grids_quantity: 20, quantity_per_grid: '0.01' },
  dca: JSON.parse(fs.readFileSync('examples/backtest/dca-usdt-btc.json', 'utf8')),
};

describe('the backtest report in a real browser', { skip: browserMissing() }, () => {
  for (const [kind, settings] of Object.entries(RUNS)) {
    it(`draws a ${kind} report from the file alone, with a marker for every fill and no console error`, { timeout: 120_000 }, async () => {
      const prepared = prepareBacktest({ kind, settings, pair: 'USDT_BTC', from: '2019-01-01', to: '2019-01-31' });
      const series = shippedCandles(prepared.candles);
      const result = await runBacktest({ ...prepared, series });
      assert.ok(result.fills.length > 10, `${result.fills.length} fills`);
      const file = path.join(dir, `${kind}.html`);
      fs.writeFileSync(file, renderReport(result, series));

      const { chromium } = await import('playwright-core');
      // Root in a container cannot use Chromium's sandbox.
      const browser = await chromium.launch({ executablePath: CHROMIUM, args: process.getuid?.() === 0 ? ['--no-sandbox'] : [] });
      try {
        const context = await browser.newContext({ viewport: { width: 1200, height: 900 }, offline: true });
        context.setDefaultTimeout(120_000);
        const page = await context.newPage();
        const problems: string[] = [];
        page.on('console', (message) => message.type() === 'error' && problems.push(message.text()));
        page.on('pageerror', (error) => problems.push(error.message));
        page.on('request', (request) => !request.url().startsWith('file:') && problems.push(`asked the network for ${request.url()}`));
        await page.goto(pathToFileURL(file).href);
        await page.waitForSelector('body[data-ready="true"]');
        assert.equal(await page.getAttribute('#candles', 'data-markers'), String(result.fills.length));
        assert.equal(await page.locator('#candles canvas').count() > 0, true);
        assert.match(await page.locator('#figures').innerText(), new RegExp(`Net profit\\s+${result.figures.net_profit.replace('.', '\\.')} USDT`));
        fs.mkdirSync('.cache', { recursive: true });
        await page.screenshot({ path: path.join('.cache', `backtest-report-${kind}.png`), fullPage: true });
        assert.deepEqual(problems, []);
      } finally {
        await browser.close();
      }
    });
  }
});
