import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type Decimal, dec } from '../../shared/decimal.ts';
import { layOut } from './grid-plan.ts';
import { isMarked, requiredBalances } from './required-balances.ts';
import { newGridBot } from './grid-bot-state.ts';
import { gridConfig, RULES } from './test-kit.ts';

// 100 110 [120] 130 140 at 121: buys need 210 USDT, sells 2 BTC
const lines = layOut(newGridBot(gridConfig(), RULES.priceStep), RULES, dec(121));
const fee = dec('0.001');
const text = (value: Decimal) => value.toFixed();
const check = (base: string, quote: string) => requiredBalances(lines, { base: dec(base), quote: dec(quote) }, dec(121), RULES, fee);

describe(requiredBalances.name, () => {
  it('needs nothing more when both sides are covered', () => {
    const result = check('2', '210');
    assert.deepEqual([text(result.required.base), text(result.required.quote)], ['2', '210']);
    assert.deepEqual([text(result.missing.base), text(result.missing.quote)], ['0', '0']);
    assert.equal(result.needBalancing, false);
    assert.equal(result.balancingAvailable, true);
    assert.equal(result.balancing, null);
  });

  it('buys the missing base with surplus quote', () => {
    const result = check('1.5', '1000');
    assert.equal(text(result.missing.base), '0.5');
    assert.deepEqual(result.necessary, { quantity: dec('0.5'), currency: 'base' });
    assert.equal(result.needBalancing, true);
    assert.equal(result.balancingAvailable, true);
    assert.equal(result.balancing!.side, 'buy');
    assert.equal(text(result.balancing!.amount), '0.50051');
  });

  it('sells surplus base for the missing quote', () => {
    const result = check('5', '110');
    assert.equal(text(result.missing.quote), '100');
    assert.equal(result.balancing!.side, 'sell');
    assert.equal(text(result.balancing!.amount), '0.82728');
  });

  it('cannot balance when the surplus is too small or both sides are short', () => {
    const short = check('1.5', '250');
    assert.equal(short.needBalancing, true);
    assert.equal(short.balancingAvailable, false);
    assert.equal(short.balancing, null);
    const both = check('1', '100');
    assert.equal(both.balancingAvailable, false);
    assert.deepEqual(both.necessary, { quantity: dec('231'), currency: 'quote' });
  });

  it('raises a tiny balancing order to the market minimum', () => {
    const result = check('1.99999', '1000');
    assert.equal(text(result.balancing!.amount), text(dec(5).div(121).toDecimalPlaces(5, 0)));
  });

  it('knows unmarked lines', () => {
    assert.equal(isMarked(lines), true);
    assert.equal(isMarked(layOut(newGridBot(gridConfig(), RULES.priceStep), RULES, undefined)), false);
  });
});
