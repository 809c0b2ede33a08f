import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { dec } from '../../shared/decimal.ts';
import type { ApiError } from '../../shared/errors.ts';
import { RULES } from './test-support/harness.ts';
import { aConfig, aStep, aStopLoss, type ConfigOptions } from './test-support/fixtures.ts';
import { validateSmartTrade } from './validation.ts';

const QUOTE = { bid: dec(100), ask: dec(100), last: dec(100) };

function attributes(options: ConfigOptions): Record<string, string[]> {
  try {
    validateSmartTrade(aConfig(options), RULES, QUOTE);
  } catch (error) {
    return (error as ApiError).attributes ?? {};
  }
  return {};
}

describe('SmartTrade validation', () => {
  it('accepts a complete long', () => {
    assert.deepEqual(attributes({ steps: [aStep('60', { value: '110' }), aStep('40', { percent: '20' })], stopLoss: aStopLoss({ percent: '5' }) }), {});
  });

  it('names mutually exclusive value and percent with both keys', () => {
    assert.deepEqual(attributes({ steps: [aStep('100', { value: '110', percent: '10' })] }), {
      'take_profit[steps][0][price][value],take_profit[steps][0][price][percent]': ['are mutually exclusive'],
    });
    assert.deepEqual(attributes({ stopLoss: aStopLoss({}) }), { 'stop_loss[conditional][price][value]': ['is missing'] });
  });

  it('wants volumes adding up to 100, at most 8 steps, trailing on the last step only', () => {
    assert.deepEqual(attributes({ steps: [aStep('50', { value: '110' }), aStep('40', { value: '120' })] }), {
      'take_profit[steps]': ['volumes must add up to 100'],
    });
    const nine = Array.from({ length: 9 }, (_, i) => aStep(i === 0 ? '20' : '10', { value: String(101 + i) }));
    assert.deepEqual(attributes({ steps: nine }), { 'take_profit[steps]': ['must have at most 8 items'] });
    assert.deepEqual(attributes({ steps: [aStep('50', { value: '110' }, { trailingPercent: dec(1) }), aStep('50', { value: '120' })] }), {
      'take_profit[steps][0][trailing][enabled]': ['is only available on the last step'],
    });
    assert.deepEqual(attributes({ steps: [aStep('100', { value: '110' }, { trailingPercent: dec('0.001') })] }), {
      'take_profit[steps][0][trailing][percent]': ['must be greater than or equal to 0.01'],
    });
  });

  it('puts targets above and stops below a long entry, and the reverse for a short', () => {
    assert.deepEqual(attributes({ steps: [aStep('100', { value: '90' })], stopLoss: aStopLoss({ value: '105' }) }), {
      'take_profit[steps][0][price][value]': ['must be greater than the entry price 100'],
      'stop_loss[conditional][price][value]': ['must be less than the entry price 100'],
    });
    assert.deepEqual(attributes({ side: 'sell', steps: [aStep('100', { value: '110' })] }), {
      'take_profit[steps][0][price][value]': ['must be less than the entry price 100'],
    });
  });

  it('breakeven needs two take-profit steps; a limit stop needs its price', () => {
    assert.deepEqual(attributes({ steps: [aStep('100', { value: '110' })], stopLoss: aStopLoss({ value: '90' }, { breakeven: true, orderType: 'limit' }) }), {
      'stop_loss[price][value]': ['is missing'],
      'stop_loss[breakeven]': ['needs at least two take profit steps'],
    });
  });

  it('checks the entry against the market rules', () => {
    assert.deepEqual(attributes({ entry: { units: dec('1.00015') } }), { 'position[units][value]': ['must be a multiple of 0.0001'] });
    assert.deepEqual(attributes({ entry: { units: dec('0.01') } }), { 'position.total': ['must be greater than or equal to 5'] });
    assert.deepEqual(attributes({ entry: { units: dec('9001') } }), { units_to_buy: ['must be less than or equal to 9000'] });
    assert.deepEqual(attributes({ entry: { orderType: 'limit', price: dec('99.999') } }), { 'position[price][value]': ['must be a multiple of 0.01'] });
    assert.deepEqual(attributes({ entry: { orderType: 'limit' } }), { 'position[price][value]': ['is missing'] });
  });

  it('a trailing entry must enter at market; simple trades take no targets', () => {
    assert.deepEqual(
      attributes({ entry: { orderType: 'conditional', price: dec(96), conditional: { priceType: 'ask', trigger: dec(95), orderType: 'limit', trailingPercent: dec(1) } } }),
      { 'position[conditional][trailing][enabled]': ['is only available with a market order'] },
    );
    assert.deepEqual(attributes({ instant: true, steps: [aStep('100', { value: '110' })] }), { 'take_profit[enabled]': ['is not available for a simple trade'] });
  });
});
