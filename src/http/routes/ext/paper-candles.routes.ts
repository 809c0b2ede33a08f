/** Candles of the paper market, for charts: built from the prices the paper venue has applied. */
import Type from 'typebox';
import { CANDLE_INTERVALS, type CandleBook } from '../../../market-data/candle-book.ts';
import type { PaperTrading } from '../../../engine/paper-trading.ts';
import { FieldErrorCollector } from '../../../shared/errors.ts';
import { defineRoute } from '../../route.ts';
import { oneOf } from '../../schemas/common.ts';
import { Instant, instant } from '../../schemas/instant.ts';

const CandlesInput = Type.Object({
  pair: Type.String({ minLength: 1, maxLength: 40 }),
  interval: oneOf(Object.keys(CANDLE_INTERVALS) as Array<keyof typeof CANDLE_INTERVALS>, { default: '1m' }),
  from: Type.Optional(Instant),
  to: Type.Optional(Instant),
  limit: Type.Integer({ minimum: 1, maximum: 5000, default: 500 }),
});

export const paperCandleRoutes = (paper: PaperTrading, candles: CandleBook) => [
  defineRoute({
    method: 'GET',
    url: '/ext/paper/candles',
    summary: 'Candles of a paper pair since the server started, oldest first; `time` is the start of each interval in Unix seconds',
    tags: ['ext'],
    input: CandlesInput,
    handler: ({ input }) => {
      const invalid = new FieldErrorCollector();
      if (!paper.markets().some((market) => market.pair === input.pair)) invalid.add('pair', 'does not have a valid value');
      const from = input.from === undefined ? 0 : instant(input.from).getTime();
      const to = input.to === undefined ? Number.MAX_SAFE_INTEGER : instant(input.to).getTime();
      if (from > to) invalid.add('from', 'must not be after to');
      invalid.throwIfAny();
      return candles.candles(input.pair, input.interval, from, to, input.limit).map((candle) => ({
        time: candle.start / 1000,
        open: candle.open.toFixed(),
        high: candle.high.toFixed(),
        low: candle.low.toFixed(),
        close: candle.close.toFixed(),
      }));
    },
  }),
];
