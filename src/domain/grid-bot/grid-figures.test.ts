import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { dec } from '../../shared/decimal.ts';
import { gridFigures, presentedLines } from './grid-figures.ts';
import { GridHarness, gridConfig } from './test-kit.ts';

const text = (value: { toFixed(): string } | null) => (value === null ? null : value.toFixed());

describe(gridFigures.name, () => {
  it('values the grid against its investment at the start price, from the fills', () => {
    const h = new GridHarness(gridConfig(), 120).start();
    // investment: 2 BTC for 130 and 140, 210 USDT for 100 and 110; at 120 that is 450
    const start = gridFigures(h.state, dec(120));
    assert.equal(text(start.currentProfitLoss), '0');
    assert.equal(text(start.investmentQuote), '210');
    h.moveTo(109);
    const down = gridFigures(h.state, dec(109));
    // bought 1 BTC at 110 (fee 0.001 BTC): −110 USDT, +0.999 BTC; 2 BTC held lose 11 each
    assert.equal(text(down.currentProfitLoss), dec(-110).plus(dec('0.999').times(109)).plus(dec(2).times(-11)).toFixed());
    assert.equal(text(down.unrealizedProfitLoss), text(down.currentProfitLoss));
    h.moveTo(121);
    const back = gridFigures(h.state, dec(121));
    assert.equal(text(back.currentProfit), '9.76012');
    assert.equal(text(back.profitPercentage), dec('9.76012').div(450).times(100).toFixed());
    assert.equal(text(back.unrealizedProfitLoss), text(back.currentProfitLoss!.minus('9.76012')));
  });

  it('shows no investment and no running profit or loss while the bot is off, but keeps its profit', () => {
    const h = new GridHarness(gridConfig(), 120).start().moveTo(109).moveTo(121).act({ type: 'disable' });
    const off = gridFigures(h.state, dec(121));
    assert.equal(text(off.investmentBase), '0');
    assert.equal(text(off.investmentQuote), '0');
    assert.equal(off.currentProfitLoss, null);
    assert.equal(off.currentProfitLossPercent, null);
    assert.equal(text(off.currentProfit), '9.76012');
    assert.equal(off.totalProfitsCount, 1);
  });
});

describe(presentedLines.name, () => {
  it('lists the waiting line, then sells from the top down, then buys from the bottom up', () => {
    const h = new GridHarness(gridConfig({ gridsQuantity: 6, upperPrice: dec(150) }), 121).start();
    assert.deepEqual(presentedLines(h.state).map((line) => `${line.price.toFixed()} ${line.side ?? '-'}`), [
      '120 -', '150 sell', '140 sell', '130 sell', '100 buy', '110 buy',
    ]);
  });
});
