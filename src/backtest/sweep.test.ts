import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError } from '../shared/errors.ts';
import { prepareBacktest } from './backtest-request.ts';
import { shippedCandles } from './candle-series.ts';
import { runBacktest } from './runner.ts';
import { ranked, runSweep, sweepCombinations, sweepTable } from './sweep.ts';

const REQUEST = {
  kind: 'grid',
  settings: { lower_price: '3700', upper_price: '4100', grids_quantity: 10, quantity_per_grid: '0.01' },
  pair: 'USDT_BTC',
  from: '2019-01-01',
  to: '2019-01-02',
};

describe('parameter sweeps', () => {
  it('makes every combination of the ranges, and names ranges that are not', () => {
    assert.deepEqual(sweepCombinations('lower_price=3000..3200:200,grids_quantity=10..30:10'), [
      { lower_price: '3000', grids_quantity: '10' }, { lower_price: '3000', grids_quantity: '20' }, { lower_price: '3000', grids_quantity: '30' },
      { lower_price: '3200', grids_quantity: '10' }, { lower_price: '3200', grids_quantity: '20' }, { lower_price: '3200', grids_quantity: '30' },
    ]);
    assert.deepEqual(sweepCombinations('quantity_per_grid=0.01..0.02:0.005').map((c) => c.quantity_per_grid), ['0.01', '0.015', '0.02']);
    for (const bad of ['lower_price=3000', 'lower=1..2:0', 'grids_quantity=30..10:10', 'grids_quantity=1..2000:1,lower_price=1..2:1']) {
      assert.throws(() => sweepCombinations(bad), (error: unknown) => error instanceof ApiError && error.attributes?.sweep !== undefined, bad);
    }
  });

  it('runs the combinations on worker threads to the figures a direct run gives, and ranks them', { timeout: 120_000 }, async () => {
    const combinations = [{ grids_quantity: '6' }, { grids_quantity: '12' }, { upper_price: '3000' }];
    const outcomes = await runSweep({ request: REQUEST }, combinations);
    assert.deepEqual(outcomes.map((outcome) => outcome.settings), combinations);
    const prepared = prepareBacktest({ ...REQUEST, settings: { ...REQUEST.settings, grids_quantity: '12' } });
    const direct = await runBacktest({ ...prepared, series: shippedCandles(prepared.candles) });
    assert.deepEqual(outcomes[1]!.figures, direct.figures);
    assert.equal(outcomes[2]!.figures, undefined);
    assert.equal(outcomes[2]!.error?.error, 'record_invalid');
    const byProfit = ranked(outcomes, 'net_profit');
    assert.equal(byProfit.length, 2);
    assert.ok(Number(byProfit[0]!.figures!.net_profit) >= Number(byProfit[1]!.figures!.net_profit));
    assert.match(sweepTable(outcomes), /^Best 2 by net profit\n/);
    assert.match(sweepTable(outcomes), /1 combination\(s\) refused/);
  });
});
