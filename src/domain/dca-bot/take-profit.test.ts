import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { dec } from '../../shared/decimal.ts';
import { splitAmount, takeProfitPrice, takeProfitSteps, targetPrice } from './take-profit.ts';
import { dealSettings } from './test-support/fixtures.ts';

const STEP = dec('0.01');

describe('take-profit prices', () => {
  it('builds the fee into the price as the reference deal example does', () => {
    // bought 0.0324 ETH for 100.39125096 USDT (avg 3098.4954); steps +2/+3/+4 % with a 0.1 % fee.
    const settings = dealSettings({
      takeProfitSteps: [
        { amountPercentage: '40', profitPercentage: '2' },
        { amountPercentage: '50', profitPercentage: '3' },
        { amountPercentage: '10', profitPercentage: '4' },
      ],
    });
    const position = { entryAmount: dec('0.0324'), entryVolume: dec('100.39125096'), baseOrderVolume: dec('100.39125096') };
    const steps = takeProfitSteps(settings);
    const prices = steps.map((step) => takeProfitPrice(settings, position, step.profitPercentage, STEP).toFixed());
    assert.deepEqual(prices, ['3163.63', '3194.65', '3225.67']);
    const amounts = splitAmount(dec('0.0324'), steps.map((step) => step.amountPercentage), dec('0.0001'));
    assert.deepEqual(amounts.map((amount) => amount.toFixed()), ['0.0129', '0.0162', '0.0033']);
  });

  it('takes one step of 100 % at take_profit when no steps are given', () => {
    const steps = takeProfitSteps(dealSettings({ takeProfit: '1.5' }));
    assert.deepEqual(steps.map((s) => [s.amountPercentage.toFixed(), s.profitPercentage.toFixed()]), [['100', '1.5']]);
  });

  it('targets tp % of the base order only when the type is base', () => {
    // Base order 100 USDT, then a safety order: 300 USDT for 3 units (avg 100).
    const position = { entryAmount: dec(3), entryVolume: dec(300), baseOrderVolume: dec(100) };
    const total = takeProfitPrice(dealSettings({ takeProfitType: 'total', feeRate: '0' }), position, dec(3), STEP);
    const base = takeProfitPrice(dealSettings({ takeProfitType: 'base', feeRate: '0' }), position, dec(3), STEP);
    assert.equal(total.toFixed(), '103');
    assert.equal(base.toFixed(), '101');
  });

  it('mirrors the target below the average for a short deal, rounded down', () => {
    assert.equal(targetPrice('short', dec(100), dec(2), dec('0.001'), STEP).toFixed(), '97.9');
    assert.equal(targetPrice('short', dec('100.07'), dec(1), dec(0), STEP).toFixed(), '99.06');
  });

  it('splits amounts so that the shares always add up', () => {
    const shares = splitAmount(dec('0.00007'), [dec(33), dec(33), dec(34)], dec('0.00001'));
    assert.deepEqual(shares.map((s) => s.toFixed()), ['0.00002', '0.00002', '0.00003']);
  });
});
