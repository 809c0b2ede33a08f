import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { PAPER_MARKETS } from '../../exchanges/paper/paper-markets.ts';
import { dec } from '../../shared/decimal.ts';
import { type Quote, ruleViolations, type TradingRules } from './trading-rules.ts';

const rules = PAPER_MARKETS.find((market) => market.pair === 'USDT_BTC')!.rules;
const narrower: TradingRules = { ...rules, bidMultiplierDown: dec('0.9'), bidMultiplierUp: dec('1.1'), askMultiplierDown: dec('0.9'), askMultiplierUp: dec('1.1') };

/** The band as the rules state it, worked out afresh. */
function outsideBand(rules: TradingRules, side: 'buy' | 'sell', price: string, quote: Quote): boolean {
  const reference = side === 'buy' ? quote.bid : quote.ask;
  if (reference.isZero()) return false;
  const [down, up] = side === 'buy' ? [rules.bidMultiplierDown, rules.bidMultiplierUp] : [rules.askMultiplierDown, rules.askMultiplierUp];
  return dec(price).lt(reference.times(down)) || dec(price).gt(reference.times(up));
}

describe('ruleViolations', () => {
  it('tells a limit price outside the band of the quote, for either side and either rules, however often one quote is asked', () => {
    const quotes = [
      { bid: dec('59000'), ask: dec('59001') },
      { bid: dec('0'), ask: dec('61000') },
    ];
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            quote: fc.constantFrom(...quotes),
            strict: fc.boolean(),
            side: fc.constantFrom('buy' as const, 'sell' as const),
            price: fc.integer({ min: 1, max: 400_000 }).map((price) => String(price)),
          }),
          { minLength: 1, maxLength: 30 },
        ),
        (checks) => {
          for (const { quote, strict, side, price } of checks) {
            const checked = strict ? narrower : rules;
            const found = ruleViolations(checked, { side, type: 'limit', amount: dec('0.01'), price: dec(price) }, quote).includes('price_band');
            assert.equal(found, outsideBand(checked, side, price, quote), `${side} at ${price}`);
          }
        },
      ),
    );
  });
});
