import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { aCandle, HOUR } from '../../../test/builders/candle.ts';
import { intraCandlePath } from './candle.ts';

const START_HOUR = Date.UTC(2019, 0, 1) / HOUR;
const candle = (open: string, high: string, low: string, close: string) => aCandle(START_HOUR, open, high, low, close);
const prices = (path: ReturnType<typeof intraCandlePath>) => path.map((p) => p.price.toFixed());

describe(intraCandlePath.name, () => {
  it('visits the low before the high in a rising candle', () => {
    assert.deepEqual(prices(intraCandlePath(candle('100', '110', '95', '108'), HOUR)), ['100', '95', '110', '108']);
  });

  it('visits the high before the low in a falling candle', () => {
    assert.deepEqual(prices(intraCandlePath(candle('100', '104', '90', '92'), HOUR)), ['100', '104', '90', '92']);
  });

  it('spreads the points over the candle, ending just before the next one opens', () => {
    const times = intraCandlePath(candle('1', '1', '1', '1'), HOUR).map((p) => p.at.getTime() - Date.UTC(2019, 0, 1));
    assert.deepEqual(times, [0, 1_200_000, 2_400_000, HOUR - 1]);
  });
});
