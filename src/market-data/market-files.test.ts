import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { candleDurationMs, MARKET_FIXTURES_DIR, readCandles, readTrades } from './market-files.ts';

describe('shipped market files', () => {
  it('reads the 1h BTC candles in order, with exact decimals', () => {
    const file = path.join(MARKET_FIXTURES_DIR, 'coinbase-BTCUSD-1h-2017-07_2019-10.csv.gz');
    const candles = readCandles(file);
    assert.equal(candles.length, 20_111);
    assert.equal(candles[0]!.time.toISOString(), '2017-07-01T11:00:00.000Z');
    assert.equal(candleDurationMs(file), 3_600_000);
    for (let i = 1; i < candles.length; i++) {
      assert.ok(candles[i]!.time > candles[i - 1]!.time);
      assert.ok(candles[i]!.low.lte(candles[i]!.high));
    }
  });

  it('reads every BTC/USDT trade', () => {
    const trades = readTrades(path.join(MARKET_FIXTURES_DIR, 'binance-BTCUSDT-trades-2024-08-08T2354_2024-08-09T0005.csv.gz'));
    assert.equal(trades.length, 19_904);
    assert.equal(trades.filter((t) => t.takerSide === 'buy').length, 9_093);
  });
});
