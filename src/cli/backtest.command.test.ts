import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { dec } from '../shared/decimal.ts';
import { progressReporter } from './backtest-progress.ts';
import { runBacktestCommand } from './backtest.command.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tradeloop-backtest-cli-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

const file = (name: string, text: string) => {
  const target = path.join(dir, name);
  fs.writeFileSync(target, text);
  return target;
};
const GRID = file('grid.json', JSON.stringify({ lower_price: '3700', upper_price: '4100', grids_quantity: 12, quantity_per_grid: '0.01' }));
const DCA = file('dca.json', fs.readFileSync('examples/backtest/dca-usdt-btc.json', 'utf8'));
const PERIOD = ['--pair', 'USDT_BTC', '--from', '2019-01-01', '--to', '2019-01-03'];

async function run(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runBacktestCommand(args, { stdout: { write: (text) => out.push(text) }, stderr: { write: (text) => err.push(text) } });
  return { code, stdout: out.join(''), stderr: err.join('') };
}

describe('tradeloop backtest', () => {
  it('prints the summary, writes the JSON result and reports progress in plain lines off a terminal', async () => {
    const json = path.join(dir, 'grid-result.json');
    const { code, stdout, stderr } = await run(['--kind', 'grid', '--settings', GRID, ...PERIOD, '--json', json]);
    assert.equal(code, 0, stderr);
    assert.match(stdout, /^Period {2,}2019-01-01T00:00 → 2019-01-04T00:00 \(72 × 1h, coinbase-BTCUSD-1h/);
    assert.match(stdout, /Grid cycles {2,}\d+/);
    assert.match(stderr, /^backtest 100 %: 72\/72 candles, \d+ candles\/s, 0\.0 s left$/m);
    const result = JSON.parse(fs.readFileSync(json, 'utf8'));
    assert.deepEqual(Object.keys(result), [
      'kind', 'pair', 'timeframe', 'from', 'to', 'source', 'candles', 'missing_candles', 'fee', 'slippage_bps',
      'start_balances', 'end_balances', 'figures', 'series', 'orders', 'fills', 'grid_lines', 'deals',
    ]);
    assert.equal(result.candles, 72);
    assert.deepEqual(result.start_balances, [{ currency: 'USDT', amount: '10000' }]);
    assert.equal(result.series.equity.length, 73);
    assert.equal(result.grid_lines.length, 12);
    assert.ok(result.orders.length > 12 && result.fills.length > 0);
    for (const value of Object.values(result.figures)) assert.ok(value === null || ['string', 'number'].includes(typeof value));
    assert.equal(result.figures.net_profit, dec(result.figures.end_value).minus(result.figures.start_value).toFixed());
  });

  it('prints the result as JSON with --json -, for a DCA bot', async () => {
    const { code, stdout, stderr } = await run(['--kind', 'dca', '--settings', DCA, ...PERIOD, '--json', '-', '--fee', '0.00075', '--slippage-bps', '0']);
    assert.equal(code, 0, stderr);
    const result = JSON.parse(stdout);
    assert.equal(result.kind, 'dca');
    assert.equal(result.fee, '0.00075');
    assert.ok(result.figures.deals >= 1);
    assert.equal(result.deals.length, result.figures.deals);
    assert.ok(result.figures.max_safety_orders_used >= 0);
  });

  const refusals: Array<[string, string[], RegExp]> = [
    ['an unknown flag', ['--kind', 'grid', '--colour', 'red'], /Unknown option '--colour'/],
    ['a settings file that is not there', ['--kind', 'grid', '--settings', path.join(dir, 'none.json'), ...PERIOD], /--settings .*none\.json cannot be read: ENOENT/],
    ['settings that are not JSON', ['--kind', 'grid', '--settings', file('bad.json', '{lower'), ...PERIOD], /is not valid JSON/],
    ['settings of another kind', ['--kind', 'dca', '--settings', GRID, ...PERIOD], /kind: is dca, but the settings are for grid/],
    ['settings the create endpoint refuses', ['--kind', 'grid', '--settings', file('g.json', '{"upper_price":"4100","grids_quantity":1}'), ...PERIOD], /lower_price: is missing\n {2}quantity_per_grid: is missing/],
    ['an empty candle file', ['--kind', 'grid', '--settings', GRID, ...PERIOD, '--data', file('empty.csv', 'time,open,high,low,close,volume\n')], /data: empty\.csv holds no candles/],
    ['an unsorted candle file', ['--kind', 'grid', '--settings', GRID, '--pair', 'USDT_BTC', '--from', '1970-01-01', '--to', '1970-01-01', '--data', file('unsorted.csv', 'time,open,high,low,close,volume\n3600000,1,2,0.5,1,1\n0,1,2,0.5,1,1\n')], /data: unsorted\.csv line 3: the candles are not sorted/],
    ['a pair the data does not hold', ['--kind', 'grid', '--settings', GRID, '--pair', 'USDT_SOL', '--from', '2019-01-01', '--to', '2019-01-03'], /pair: has no shipped candles/],
    ['a period outside the data', ['--kind', 'grid', '--settings', GRID, '--pair', 'USDT_BTC', '--from', '2010-01-01', '--to', '2010-02-01'], /from: the shipped USDT_BTC candles cover/],
    ['a balance too small for the bot', ['--kind', 'grid', '--settings', GRID, ...PERIOD, '--balances', 'USDT:50'], /quantity_per_grid: Insufficient funds/],
    ['a sweep that is not ranges', ['--kind', 'grid', '--settings', GRID, ...PERIOD, '--sweep', 'grids=many'], /sweep: "grids=many" is not FIELD=FROM\.\.TO:STEP/],
    ['flags out of shape', ['--kind', 'grids', '--settings', GRID, '--pair', 'BTC', '--from', 'yesterday', '--to', '2019-01-03', '--timeframe', '7x'], /kind: must be one of grid, dca, smart_trade\n {2}pair: .*\n {2}from: .*\n {2}timeframe: /],
  ];
  for (const [what, args, message] of refusals) {
    it(`refuses ${what} with one message, exit status 2 and no report`, async () => {
      const json = path.join(dir, `refused-${what.replace(/\W+/g, '-')}.json`);
      const { code, stdout, stderr } = await run([...args, '--json', json]);
      assert.equal(code, 2, stderr);
      assert.match(stderr, message);
      assert.equal(stdout, '');
      assert.equal(fs.existsSync(json), false);
    });
  }

  it('draws a bar in place on a terminal', () => {
    const written: string[] = [];
    let clock = 0;
    const report = progressReporter({ write: (text) => written.push(text), isTTY: true }, () => clock);
    clock = 2000;
    report({ done: 50, total: 100 });
    clock = 4000;
    report({ done: 100, total: 100 });
    assert.equal(written[0], `\r[${'#'.repeat(15)}${'.'.repeat(15)}]  50 % 50/100 candles, 25 candles/s, 2.0 s left\x1b[K`);
    assert.equal(written.at(-1), '\n');
  });
});
