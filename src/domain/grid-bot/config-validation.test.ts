import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parsePair } from '../market/pair.ts';
import { buildGridConfig } from './config-validation.ts';
import type { GridBotParams } from './grid-bot-params.ts';
import { dec } from '../../shared/decimal.ts';
import { gridConfig, RULES } from './test-kit.ts';

const pair = parsePair('USDT_BTC')!;
const FEE = dec('0.001');
const valid: GridBotParams = { upper_price: '72000', lower_price: '56000', quantity_per_grid: '0.001', grids_quantity: 50 };
const errorsOf = (params: GridBotParams) => {
  const result = buildGridConfig({ ...valid, ...params }, pair, RULES, FEE);
  return result.ok ? {} : result.errors;
};

describe(buildGridConfig.name, () => {
  it('reads a valid body with the reference defaults', () => {
    const result = buildGridConfig(valid, pair, RULES, FEE);
    assert.ok(result.ok);
    const { config } = result;
    assert.equal(config.name, 'USDT_BTC Grid Bot');
    assert.equal(config.gridType, 'arithmetic');
    assert.equal(config.orderCurrencyType, 'base');
    assert.equal(config.profitCurrencyType, 'quote');
    assert.equal(config.upperStopLoss.action, 'stop_bot');
    assert.equal(config.leverageType, 'not_specified');
    assert.equal(config.maxActiveBuyLines, null);
    assert.equal(config.upperPrice.toFixed(), '72000');
  });

  it('names every missing required field', () => {
    const result = buildGridConfig({}, pair, RULES, FEE);
    assert.ok(!result.ok);
    assert.deepEqual(result.errors, {
      upper_price: ['is missing'],
      lower_price: ['is missing'],
      quantity_per_grid: ['is missing'],
      grids_quantity: ['is missing'],
    });
  });

  it('checks prices against the market and each other', () => {
    assert.deepEqual(errorsOf({ lower_price: '72000' }), { lower_price: ['must be less than upper_price'] });
    assert.deepEqual(errorsOf({ upper_price: '2000000' }), { upper_price: ['must be less than or equal to 1000000'] });
    assert.deepEqual(errorsOf({ lower_price: '0.001' }), { lower_price: ['must be greater than or equal to 0.01'] });
    assert.deepEqual(errorsOf({ lower_price: '0' }), { lower_price: ['must be greater than 0'] });
    assert.deepEqual(errorsOf({ upper_price: 'abc' }), { upper_price: ['is invalid'] });
  });

  it('bounds the number of lines', () => {
    assert.deepEqual(errorsOf({ grids_quantity: 1 }), { grids_quantity: ['must be greater than or equal to 2'] });
    assert.deepEqual(errorsOf({ grids_quantity: 202 }), { grids_quantity: ['must be less than or equal to 201'] });
    assert.deepEqual(errorsOf({ upper_price: '100.02', lower_price: '100', quantity_per_grid: '1', grids_quantity: 5 }), {
      grids_quantity: ['is too large for the price range: grid lines would share a price'],
    });
  });

  it('checks every line order against the minimum amount and total', () => {
    assert.deepEqual(errorsOf({ quantity_per_grid: '0.000001' }), {
      quantity_per_grid: ['gives an order below the minimum amount of 0.00001 BTC'],
    });
    assert.deepEqual(errorsOf({ quantity_per_grid: '0.00005' }), {
      quantity_per_grid: ['gives an order at 56000 below the minimum total of 5 USDT'],
    });
    // quote mode floors the amount to the lot step: 7 USDT never falls below 7 − 0.00001 · 72000 = 6.28
    assert.deepEqual(errorsOf({ quantity_per_grid: '7', order_currency_type: 'quote' }), {});
    assert.deepEqual(errorsOf({ quantity_per_grid: '5.02', order_currency_type: 'quote' }), {
      quantity_per_grid: ['gives an order at 56000 below the minimum total of 5 USDT'],
    });
  });

  it('wants stop losses and expansion stops on the outer side of the range', () => {
    assert.deepEqual(errorsOf({ upper_stop_loss_enabled: true, upper_stop_loss_price: '70000', lower_stop_loss_enabled: true, lower_stop_loss_price: '57000' }), {
      upper_stop_loss_price: ['must be greater than upper_price'],
      lower_stop_loss_price: ['must be less than lower_price'],
    });
    assert.deepEqual(errorsOf({ upper_stop_loss_enabled: true, expansion_down_enabled: true }), {
      upper_stop_loss_price: ['is missing'],
      expansion_down_stop_price: ['is missing'],
    });
    assert.deepEqual(errorsOf({ expansion_up_enabled: true, expansion_up_stop_price: '60000', expansion_down_enabled: true, expansion_down_stop_price: '57000' }), {
      expansion_up_stop_price: ['must be greater than upper_price'],
      expansion_down_stop_price: ['must be less than lower_price'],
    });
    // a disabled stop loss may keep any price
    assert.deepEqual(errorsOf({ upper_stop_loss_enabled: false, upper_stop_loss_price: '1' }), {});
  });

  it('checks enums, lengths and combinations', () => {
    assert.deepEqual(errorsOf({ grid_type: 'spiral', lower_stop_loss_action: 'stop_bot_and_close_position' }), {
      grid_type: ['does not have a valid value'],
      lower_stop_loss_action: ['does not have a valid value'],
    });
    assert.deepEqual(errorsOf({ name: 'x'.repeat(41), note: 'y'.repeat(301) }), {
      name: ['too long. Max is 40 symbols'],
      note: ['too long. Max is 300 symbols'],
    });
    assert.deepEqual(errorsOf({ name: '  ' }), { name: ['is empty'] });
    assert.deepEqual(errorsOf({ trailing_up_enabled: true }), { trailing_up_enabled: ['is available only with order_currency_type quote'] });
    assert.deepEqual(errorsOf({ max_active_buy_lines: 0 }), { max_active_buy_lines: ['must be greater than or equal to 1'] });
    assert.deepEqual(errorsOf({ profit_currency_type: 'base' }), {
      profit_currency_type: ['base is not supported: profits are kept in the quote currency'],
    });
  });

  it('refuses a step that does not cover the round-trip fee, unless warnings are ignored', () => {
    // 201 lines over 60000-62000: a step of 10, 0.0161 % at 61990, against 2 × 0.1 % of fees
    const narrow = { upper_price: '62000', lower_price: '60000', grids_quantity: 201 };
    assert.deepEqual(errorsOf(narrow), {
      grids_quantity: ['gives a step of 0.0161 % at 61990, which does not cover the round-trip fee of 0.2 %: use fewer lines or a wider range (or ignore_warnings)'],
    });
    assert.deepEqual(errorsOf({ ...narrow, ignore_warnings: true }), {});
    // 0.2 % exactly covers nothing either: 60000 -> 60120 earns 120 and pays 120.12 in fees
    assert.ok('grids_quantity' in errorsOf({ upper_price: '60120', lower_price: '60000', grids_quantity: 2 }));
    assert.deepEqual(errorsOf({ upper_price: '60200', lower_price: '60000', grids_quantity: 2 }), {});
  });

  it('keeps the current settings for fields an edit leaves out', () => {
    const previous = gridConfig({ name: 'mine', gridType: 'geometric', trailingDownEnabled: true, note: 'kept' });
    const result = buildGridConfig({ upper_price: '150', lower_price: '90', quantity_per_grid: '1', grids_quantity: 4 }, pair, RULES, FEE, previous);
    assert.ok(result.ok);
    assert.equal(result.config.name, 'mine');
    assert.equal(result.config.gridType, 'geometric');
    assert.equal(result.config.trailingDownEnabled, true);
    assert.equal(result.config.note, 'kept');
    assert.equal(result.config.lowerPrice.toFixed(), '90');
  });
});
