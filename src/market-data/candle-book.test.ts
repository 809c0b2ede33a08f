import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { dec } from '../shared/decimal.ts';
import { type Candle, CandleBook } from './candle-book.ts';

const at = (time: string) => new Date(`2026-01-01T${time}Z`);
const ms = (time: string) => at(time).getTime();
const rows = (candles: Candle[]) =>
  candles.map((c) => `${new Date(c.start).toISOString().slice(11, 16)} ${c.open} ${c.high} ${c.low} ${c.close}`);

describe('CandleBook', () => {
  it('builds one-minute candles from prices in time order', () => {
    const book = new CandleBook();
    book.record('USDT_BTC', dec('100'), at('10:00:05'));
    book.record('USDT_BTC', dec('104'), at('10:00:20'));
    book.record('USDT_BTC', dec('99'), at('10:00:50'));
    book.record('USDT_BTC', dec('101'), at('10:01:00'));
    book.record('USDT_ETH', dec('5'), at('10:00:00'));
    assert.deepEqual(rows(book.candles('USDT_BTC', '1m', 0, ms('23:59:00'), 100)), ['10:00 100 104 99 99', '10:01 101 101 101 101']);
  });

  it('merges minutes into longer intervals and keeps only those starting in the range', () => {
    const book = new CandleBook();
    const prices = ['10', '12', '8', '11', '9', '13', '7'];
    prices.forEach((price, minute) => book.record('P', dec(price), at(`10:0${minute}:00`)));
    assert.deepEqual(rows(book.candles('P', '5m', 0, ms('23:00:00'), 100)), ['10:00 10 12 8 9', '10:05 13 13 7 7']);
    assert.deepEqual(rows(book.candles('P', '5m', ms('10:01:00'), ms('23:00:00'), 100)), ['10:05 13 13 7 7']);
    assert.deepEqual(rows(book.candles('P', '1m', ms('10:02:00'), ms('10:03:00'), 100)), ['10:02 8 8 8 8', '10:03 11 11 11 11']);
    assert.deepEqual(rows(book.candles('P', '1m', 0, ms('23:00:00'), 2)), ['10:05 13 13 13 13', '10:06 7 7 7 7']);
  });

  it('puts a price dated earlier into its own minute', () => {
    const book = new CandleBook();
    book.record('P', dec('10'), at('10:00:00'));
    book.record('P', dec('20'), at('10:05:00'));
    book.record('P', dec('15'), at('10:02:00'));
    book.record('P', dec('9'), at('10:00:30'));
    assert.deepEqual(rows(book.candles('P', '1m', 0, ms('23:00:00'), 100)), [
      '10:00 10 10 9 9',
      '10:02 15 15 15 15',
      '10:05 20 20 20 20',
    ]);
  });

  it('keeps only the most recent minutes', () => {
    const book = new CandleBook(3);
    for (let minute = 0; minute < 5; minute++) book.record('P', dec(minute + 1), at(`10:0${minute}:00`));
    book.record('P', dec('50'), at('09:00:00'));
    assert.deepEqual(rows(book.candles('P', '1m', 0, ms('23:00:00'), 100)), ['10:02 3 3 3 3', '10:03 4 4 4 4', '10:04 5 5 5 5']);
  });

  it('has no candles for a pair it never saw a price of', () => {
    assert.deepEqual(new CandleBook().candles('P', '1h', 0, Date.now(), 10), []);
  });
});
