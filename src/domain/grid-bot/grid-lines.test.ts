import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ceilToStep, dec, floorToStep } from '../../shared/decimal.ts';
import {
  decimalText,
  gridPrices,
  gridPriceStepText,
  gridStep,
  linePrice,
  linesAreDistinct,
  nearestIndex,
} from './grid-lines.ts';

const arithmetic = (lower: string, upper: string, gridsQuantity: number) =>
  ({ gridType: 'arithmetic', lowerPrice: dec(lower), upperPrice: dec(upper), gridsQuantity }) as const;
const texts = (prices: ReturnType<typeof gridPrices>) => prices.map((price) => decimalText(price));

describe('grid lines: the reference examples', () => {
  it('56000-72000 with 50 lines: step 16000/49, lines on the 0.01 step', () => {
    const shape = arithmetic('56000', '72000', 50);
    assert.equal(gridPriceStepText(shape), '326.530612244897959183673469387755102041');
    const prices = gridPrices(shape, dec('0.01'));
    assert.equal(prices.length, 50);
    assert.equal(decimalText(prices[0]!), '56000.0');
    assert.equal(decimalText(prices[49]!), '72000.0');
    assert.equal(decimalText(prices[27]!), '64816.33');
    assert.equal(decimalText(prices[28]!), '65142.86');
    // The create example's current price 65229.37: the waiting line is 65142.86.
    assert.equal(nearestIndex(prices, dec('65229.37')), 28);
  });

  it('56000-70000 with 40 lines: every line of the edit example, 25 buys and 14 sells around 65030.3', () => {
    const shape = arithmetic('56000', '70000', 40);
    assert.equal(gridPriceStepText(shape), '358.974358974358974358974358974358974359');
    const expected = [
      '56000.0', '56359.0', '56717.9', '57076.9', '57435.9', '57794.9', '58153.8', '58512.8', '58871.8', '59230.8',
      '59589.7', '59948.7', '60307.7', '60666.7', '61025.6', '61384.6', '61743.6', '62102.6', '62461.5', '62820.5',
      '63179.5', '63538.5', '63897.4', '64256.4', '64615.4', '64974.4', '65333.3', '65692.3', '66051.3', '66410.3',
      '66769.2', '67128.2', '67487.2', '67846.2', '68205.1', '68564.1', '68923.1', '69282.1', '69641.0', '70000.0',
    ];
    const prices = gridPrices(shape, dec('0.1'));
    assert.deepEqual(texts(prices), expected);
    const waiting = nearestIndex(prices, dec('65030.3'));
    assert.equal(decimalText(prices[waiting]!), '64974.4');
    assert.equal(waiting, 25);
    assert.equal(prices.length - 1 - waiting, 14);
  });

  it('geometric 0.016352-0.022503 with 81 lines: ratio (0.022503/0.016352)^(1/80), lines rounded up', () => {
    const shape = { gridType: 'geometric', lowerPrice: dec('0.016352'), upperPrice: dec('0.022503'), gridsQuantity: 81 } as const;
    // The reference prints 1.00399920581210916146041542739112586575949572812639182; its digits past the
    // 38th come from a lower-precision power and differ from the exact ratio.
    const reference = '1.00399920581210916146041542739112586575949572812639182';
    const ours = gridPriceStepText(shape);
    assert.equal(ours.slice(0, 39), reference.slice(0, 39));
    assert.equal(gridStep(shape).pow(80).times('0.016352').toDecimalPlaces(30).toFixed(), '0.022503');
    const prices = gridPrices(shape, dec('0.000001'));
    assert.equal(decimalText(prices[0]!), '0.016352');
    assert.equal(decimalText(prices[80]!), '0.022503');
    assert.equal(decimalText(prices[79]!), '0.022414');
    assert.equal(decimalText(prices[78]!), '0.022325');
    // The entity example: start price 0.022395 waits on 0.022414.
    assert.equal(nearestIndex(prices, dec('0.022395')), 79);
  });
});

describe('grid lines: beyond the bounds, ties and rounding', () => {
  it('extends the spacing past the bounds for trailing and expansion', () => {
    const shape = arithmetic('100', '140', 5);
    const step = gridStep(shape);
    assert.equal(linePrice(shape, step, -1, dec('0.01')).toFixed(), '90');
    assert.equal(linePrice(shape, step, 6, dec('0.01')).toFixed(), '160');
  });

  it('gives a tie to the lower line', () => {
    assert.equal(nearestIndex([dec(100), dec(110), dec(120)], dec(115)), 1);
    assert.equal(nearestIndex([dec(100), dec(110), dec(120)], dec(50)), 0);
    assert.equal(nearestIndex([dec(100), dec(110), dec(120)], dec(500)), 2);
  });

  it('notices lines that round onto the same price', () => {
    assert.equal(linesAreDistinct(gridPrices(arithmetic('100', '100.02', 5), dec('0.01'))), false);
    assert.equal(linesAreDistinct(gridPrices(arithmetic('100', '100.04', 5), dec('0.01'))), true);
  });

  it('prints integers with one decimal place and rounds to steps in both directions', () => {
    assert.equal(decimalText(dec('150')), '150.0');
    assert.equal(decimalText(dec('0.00012')), '0.00012');
    assert.equal(floorToStep(dec('0.123456'), dec('0.0001')).toFixed(), '0.1234');
    assert.equal(ceilToStep(dec('0.123401'), dec('0.0001')).toFixed(), '0.1235');
  });
});
