/**
 * How the dashboard's grid bot page copes with a bot that has 10,000 fills, in Debian's chromium:
 * time until the page shows every fill on the chart, the longest main-thread task and the total
 * blocking time (the time past 50 ms of each long task) while it loads, and switching the candle
 * interval. The same figures for a bot with a handful of fills, in the same run, are the baseline.
 * The fills come from real ticks through the paper exchange and the engine: a 100-line grid that
 * the price sweeps from end to end about 100 times.
 */
import { postTicks } from '../test/support/api.ts';
import { startTestApp, type TestApp } from '../test/support/test-app.ts';
import { browserMissing, launchBrowser } from '../test/browser/browser-kit.ts';
import type { Browser, Page } from 'playwright-core';
import type { Benchmark, BenchOutcome } from './support/benchmark.ts';

const TARGET_FILLS = 10_000;
const TICKS_PER_POST = 20;
const MINUTE = 60_000;
const CHART = '.chart-canvas[data-fills]';

interface PageFigures {
  readyMs: number;
  longestTaskMs: number;
  blockingMs: number;
  intervalSwitchMs: number;
}

export const benchmark: Benchmark = {
  name: 'dashboard-fills',
  description: `the grid bot page with ${TARGET_FILLS.toLocaleString('en')} fills in chromium, against a bot with a few, in the same run`,
  async run(): Promise<BenchOutcome> {
    let missing: string | undefined;
    try {
      missing = browserMissing();
    } catch (error) {
      missing = (error as Error).message;
    }
    if (missing) return { failures: [missing] };
    const t = await startTestApp();
    let browser: Browser | undefined;
    try {
      const admin = await t.createKey({ user: 'operator', permissions: ['ADMIN'] });
      const user = await t.createKey({ user: 'alice' });
      const credentials = { apiKey: user.apiKey, secret: user.secret };
      const post = async (path: string, body: unknown) => {
        const response = await t.request({ method: 'POST', path, body: JSON.stringify(body), contentType: 'application/json', credentials });
        if (response.status >= 300) throw new Error(`${path}: ${response.text}`);
        return response.body;
      };
      const tick = async (ticks: Array<{ pair: string; price: string; at: string }>) => {
        const response = await postTicks(t, admin, ticks);
        if (response.status !== 200) throw new Error(response.text);
      };
      const start = Date.now() - 12 * 60 * MINUTE;
      await tick([
        { pair: 'USDT_BTC', price: '60000', at: new Date(start).toISOString() },
        { pair: 'USDT_ETH', price: '3000', at: new Date(start).toISOString() },
      ]);
      const accountId = (await t.request({ path: '/ver1/accounts', credentials })).body[0].id;
      const big = await post('/ver1/grid_bots/manual', {
        account_id: accountId, pair: 'USDT_BTC', lower_price: '50000', upper_price: '70000', grids_quantity: 100, quantity_per_grid: '0.0001',
      });
      const small = await post('/ver1/grid_bots/manual', {
        account_id: accountId, pair: 'USDT_ETH', lower_price: '2900', upper_price: '3100', grids_quantity: 5, quantity_per_grid: '0.01',
      });

      const fillStarted = Date.now();
      // Sweeps two minutes apart, so the fills spread over hours of candles.
      let sweep = 1;
      let filled = 0;
      while (filled < TARGET_FILLS) {
        const batch = Array.from({ length: TICKS_PER_POST }, (_, i) => ({
          pair: 'USDT_BTC',
          price: (sweep + i) % 2 === 0 ? '49000' : '71000',
          at: new Date(start + (sweep + i) * 2 * MINUTE).toISOString(),
        }));
        sweep += TICKS_PER_POST;
        await tick(batch);
        filled = (await t.core.engine.orders(big.id)).filter((order) => order.status === 'filled').length;
      }
      // A few ETH fills and ordinary candles for both pairs, dated through the last hours.
      const wander = Array.from({ length: 600 }, (_, i) => i);
      await tick(wander.map((i) => ({ pair: 'USDT_ETH', price: String(3000 + Math.round(Math.sin(i / 40) * 120)), at: new Date(start + 6 * 60 * MINUTE + i * 30_000).toISOString() })));
      await tick(wander.map((i) => ({ pair: 'USDT_BTC', price: String(60000 + Math.round(Math.sin(i / 40) * 900)), at: new Date(start + 6 * 60 * MINUTE + i * 30_000).toISOString() })));
      const bigFills = (await t.core.engine.orders(big.id)).filter((order) => order.status === 'filled').length;
      const smallFills = (await t.core.engine.orders(small.id)).filter((order) => order.status === 'filled').length;
      console.log(`  ${bigFills.toLocaleString('en')} fills made in ${((Date.now() - fillStarted) / 1000).toFixed(1)} s; the baseline bot has ${smallFills}`);

      browser = await launchBrowser();
      const baseline = await measure(browser, t, credentials, small.id, smallFills);
      const loaded = await measure(browser, t, credentials, big.id, bigFills);
      const row = (label: string, key: keyof PageFigures) =>
        console.log(`  ${label.padEnd(28)} ${baseline[key].toFixed(0).padStart(8)} ms ${loaded[key].toFixed(0).padStart(10)} ms ${(loaded[key] / Math.max(1, baseline[key])).toFixed(1).padStart(8)}×`);
      console.log(`  ${''.padEnd(28)} ${`${smallFills} fills`.padStart(11)} ${`${bigFills} fills`.padStart(13)}    ratio`);
      row('page ready (all fills drawn)', 'readyMs');
      row('longest task while loading', 'longestTaskMs');
      row('total blocking while loading', 'blockingMs');
      row('switch to 5m candles', 'intervalSwitchMs');
      return { failures: bigFills < TARGET_FILLS ? [`only ${bigFills} fills`] : [] };
    } finally {
      await browser?.close();
      await t.close();
    }
  },
};

async function measure(browser: Browser, t: TestApp, credentials: { apiKey: string; secret: string }, botId: number, fills: number): Promise<PageFigures> {
  // The page's policy forbids evaluating strings, which is how the waits below reach the page.
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, baseURL: t.baseUrl, bypassCSP: true });
  const page = await context.newPage();
  // Browser code is given as text: this file is typed for Node, not for the DOM.
  await page.addInitScript({
    content:
      'window.longTasks = []; new PerformanceObserver((list) => list.getEntries().forEach((e) => window.longTasks.push(e.duration)))' +
      ".observe({ type: 'longtask', buffered: true });",
  });
  await page.goto('/');
  await page.getByLabel('API key').fill(credentials.apiKey);
  await page.getByLabel('Secret').fill(credentials.secret);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Overview' }).waitFor();
  await page.waitForLoadState('networkidle');
  await resetTasks(page);
  const calls: Array<{ path: string; ms: number }> = [];
  page.on('requestfinished', (request) => {
    const path = new URL(request.url()).pathname.replace(/\/\d+/g, '/:id');
    calls.push({ path, ms: request.timing().responseEnd });
  });
  const started = Date.now();
  await page.evaluate(`location.hash = '/grid-bots/${botId}'`);
  await page.waitForFunction(`Number(document.querySelector('${CHART}')?.getAttribute('data-fills')) >= ${fills}`, undefined, { timeout: 120_000 });
  const readyMs = Date.now() - started;
  printSlowestCalls(calls, fills);
  const tasks = await resetTasks(page);
  const switchStarted = Date.now();
  const before = await page.locator(CHART).getAttribute('data-candles');
  await page.getByLabel('Interval').selectOption('5m');
  await page.waitForFunction(`document.querySelector('${CHART}')?.getAttribute('data-candles') !== '${before}'`);
  const intervalSwitchMs = Date.now() - switchStarted;
  await context.close();
  return {
    readyMs,
    longestTaskMs: Math.max(0, ...tasks),
    blockingMs: tasks.reduce((sum, duration) => sum + Math.max(0, duration - 50), 0),
    intervalSwitchMs,
  };
}

/** Where the page's load spends its time on the network: the API paths by their summed durations. */
function printSlowestCalls(calls: Array<{ path: string; ms: number }>, fills: number): void {
  const byPath = new Map<string, { count: number; ms: number }>();
  for (const call of calls) {
    const entry = byPath.get(call.path) ?? { count: 0, ms: 0 };
    entry.count += 1;
    entry.ms += call.ms;
    byPath.set(call.path, entry);
  }
  const slowest = [...byPath].sort((a, b) => b[1].ms - a[1].ms).slice(0, 3);
  for (const [path, { count, ms }] of slowest) console.log(`    ${fills} fills: ${path} ×${count}, ${ms.toFixed(0)} ms in all`);
}

function resetTasks(page: Page): Promise<number[]> {
  return page.evaluate('window.longTasks.splice(0)') as Promise<number[]>;
}
