import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { annualisedReturn, calmar, DAY_MS, drawdownCurve, maxDrawdown, outcomes, periodReturns, sharpe, sortino, YEAR_MS } from './figures.ts';

const close = (actual: number | undefined, expected: number) => {
  assert.ok(actual !== undefined && Math.abs(actual - expected) < 1e-9, `${actual} is not ${expected}`);
};

describe('backtest figures on short series computed by hand', () => {
  const days = [0, 1, 2, 3, 4, 5].map((d) => d * DAY_MS);
  const equity = [100, 120, 90, 110, 130, 117];

  it('max drawdown: the deepest fall (120 → 90), and the longest time under a peak (two days)', () => {
    const drawdown = maxDrawdown(days, equity);
    assert.equal(drawdown.value, 30);
    close(drawdown.fraction, 0.25);
    assert.equal(drawdown.durationMs, 2 * DAY_MS);
  });

  it('a drawdown still open at the end lasts until the end', () => {
    assert.equal(maxDrawdown([0, DAY_MS, 5 * DAY_MS], [100, 80, 90]).durationMs, 5 * DAY_MS);
  });

  it('drawdown curve: the fall from the running peak at every point', () => {
    const curve = drawdownCurve(equity);
    [0, 0, -0.25, -10 / 120, 0, -0.1].forEach((expected, i) => close(curve[i], expected));
  });

  it('period returns run from the starting value through the last value of each period', () => {
    const times = [0, DAY_MS / 2, DAY_MS, 2 * DAY_MS - 1, 2 * DAY_MS];
    const returns = periodReturns(times, [80, 100, 999, 110, 99], DAY_MS);
    [0.25, 0.1, -0.1].forEach((expected, i) => close(returns[i], expected));
    assert.equal(returns.length, 3);
  });

  it('Sharpe and Sortino of returns 10 %, 0, 10 %, −5 %', () => {
    const returns = [0.1, 0, 0.1, -0.05];
    // mean 0.0375; sample deviation √(0.016875 / 3) = 0.075; downside √(0.0025 / 4) = 0.025.
    close(sharpe(returns, 1), 0.5);
    close(sortino(returns, 1), 1.5);
    close(sharpe(returns, 365), 0.5 * Math.sqrt(365));
  });

  it('Sharpe and Sortino are undefined when they cannot be computed', () => {
    assert.equal(sharpe([0.1], 365), undefined);
    assert.equal(sharpe([0.1, 0.1, 0.1], 365), undefined);
    assert.equal(sortino([0.1, 0.2], 365), undefined);
  });

  it('annualised return and Calmar', () => {
    close(annualisedReturn(100, 121, 2 * YEAR_MS), 0.1);
    close(annualisedReturn(100, 110, YEAR_MS / 2), 0.21);
    close(calmar(0.1, 0.25), 0.4);
    assert.equal(calmar(0.1, 0), undefined);
  });

  it('win rate and profit factor', () => {
    const result = outcomes([3, -1, 2, -1, 0]);
    assert.equal(result.count, 5);
    close(result.winRate, 0.4);
    close(result.profitFactor, 2.5);
    assert.equal(outcomes([1, 2]).profitFactor, undefined);
    assert.equal(outcomes([]).winRate, undefined);
  });
});
