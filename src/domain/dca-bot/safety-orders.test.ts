import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { dec } from '../../shared/decimal.ts';
import { amountFor, safetyDeviations, safetyLadder, safetyOrderLimit, safetyOrderStep } from './safety-orders.ts';
import { dealSettings, ETH_RULES, rules } from './test-support/fixtures.ts';

const fixed = (values: { toFixed(): string }[]) => values.map((value) => value.toFixed());

describe('safety-order ladder', () => {
  it('reproduces the worked example of mechanics §1.3 (s=1 %, k=1.2, SO=50, v=1.5)', () => {
    const settings = dealSettings({
      safetyOrderStepPercentage: '1',
      martingaleStepCoefficient: '1.2',
      safetyOrderVolume: '50',
      martingaleVolumeCoefficient: '1.5',
      maxSafetyOrders: 5,
    });
    assert.deepEqual(fixed(safetyDeviations(dec(1), dec('1.2'), 5)), ['1', '2.2', '3.64', '5.368', '7.4416']);
    const ladder = safetyLadder(settings, dec(10000), rules('0.01', '0.00001'));
    assert.deepEqual(fixed(ladder.map((step) => step.deviation)), ['-1', '-2.2', '-3.64', '-5.368', '-7.4416']);
    assert.deepEqual(fixed(ladder.map((step) => step.volume)), ['50', '75', '112.5', '168.75', '253.125']);
    assert.deepEqual(fixed(ladder.map((step) => step.price)), ['9900', '9780', '9636', '9463.2', '9255.84']);
  });

  it('places the safety orders of the reference deal example at its prices and sizes', () => {
    // Base order filled at 3098.4954; step 1 %, step scale 4, 15 USDT, volume scale 1.7.
    const settings = dealSettings({
      safetyOrderStepPercentage: '1',
      martingaleStepCoefficient: '4',
      safetyOrderVolume: '15',
      martingaleVolumeCoefficient: '1.7',
      maxSafetyOrders: 3,
    });
    const ladder = safetyLadder(settings, dec('3098.4954'), ETH_RULES);
    assert.deepEqual(fixed(ladder.map((step) => step.price)), ['3067.51', '2943.57', '2447.81']);
    assert.deepEqual(fixed(ladder.map((step) => step.amount)), ['0.0049', '0.0087', '0.0178']);
  });

  it('mirrors the ladder above the base price for a short deal', () => {
    const ladder = safetyLadder(dealSettings({ strategy: 'short', maxSafetyOrders: 2, martingaleStepCoefficient: '2' }), dec(100), ETH_RULES);
    assert.deepEqual(fixed(ladder.map((step) => step.price)), ['101', '103']);
  });

  it('keeps the deviation a straight line when the step scale is 1', () => {
    assert.deepEqual(fixed(safetyDeviations(dec('2.5'), dec(1), 4)), ['2.5', '5', '7.5', '10']);
  });

  it('uses explicit custom steps instead of the coefficients', () => {
    const settings = dealSettings({
      maxSafetyOrders: 5,
      customSafetySteps: [
        { deviation: '-1.1', size: '10' },
        { deviation: '-3', size: '25' },
      ],
    });
    assert.equal(safetyOrderLimit(settings), 2);
    const ladder = safetyLadder(settings, dec(2000), ETH_RULES);
    assert.deepEqual(fixed(ladder.map((step) => step.price)), ['1978', '1940']);
    assert.deepEqual(fixed(ladder.map((step) => step.volume)), ['10', '25']);
    assert.equal(safetyOrderStep(settings, dec(2000), 3, ETH_RULES), undefined);
  });

  it('stops the ladder where a price would not be positive', () => {
    const settings = dealSettings({ safetyOrderStepPercentage: '40', martingaleStepCoefficient: '2', maxSafetyOrders: 4 });
    assert.equal(safetyLadder(settings, dec(100), ETH_RULES).length, 1);
  });

  it('sizes quote volumes up to the lot step and base volumes as given', () => {
    assert.equal(amountFor(dec(100), 'quote_currency', dec('3095.4'), ETH_RULES).toFixed(), '0.0324');
    assert.equal(amountFor(dec('0.5'), 'base_currency', dec('3095.4'), ETH_RULES).toFixed(), '0.5');
    assert.throws(() => amountFor(dec(5), 'percent', dec(1), ETH_RULES), /percent/);
  });

  it('sizes percent safety orders as that share of the base order, growing by the volume scale', () => {
    const settings = dealSettings({
      baseOrderVolume: '200', baseOrderVolumeType: 'quote_currency', safetyOrderVolume: '50', safetyOrderVolumeType: 'percent',
      safetyOrderStepPercentage: '1', martingaleStepCoefficient: '1', martingaleVolumeCoefficient: '2', maxSafetyOrders: 2,
    });
    // 50 % of 200 USDT at 99 is 100 USDT, then 200 USDT at 98: amounts up to the lot step.
    const ladder = safetyLadder(settings, dec(100), ETH_RULES);
    assert.deepEqual(ladder.map((step) => [step.price.toFixed(), step.amount.toFixed()]), [['99', '1.0102'], ['98', '2.0409']]);
  });
});
