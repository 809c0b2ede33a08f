/** Backtests as background jobs: start one, follow its progress, read its result, cancel it. */
import Type from 'typebox';
import type { BacktestJobs } from '../../../backtest/backtest-jobs.ts';
import { presentBacktest } from '../../presenters/backtest.presenter.ts';
import { defineRoute } from '../../route.ts';
import { Id } from '../../schemas/common.ts';

const Text = (maxLength: number) => Type.Optional(Type.String({ minLength: 1, maxLength }));

const StartBacktest = Type.Object({
  kind: Type.String({ minLength: 1, maxLength: 20 }),
  settings: Type.Record(Type.String(), Type.Unknown(), { description: 'the body of the kind’s create endpoint' }),
  pair: Type.String({ minLength: 1, maxLength: 50 }),
  from: Type.String({ minLength: 1, maxLength: 30, description: 'a day (2019-01-01) or a UTC time' }),
  to: Type.String({ minLength: 1, maxLength: 30, description: 'a day (included) or a UTC time' }),
  timeframe: Text(10),
  balances: Text(200),
  fee: Text(20),
  slippage_bps: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000 })),
  allow_gaps: Type.Optional(Type.Boolean()),
});

const tags = ['ext'];

export const backtestRoutes = (backtests: BacktestJobs) => [
  defineRoute({
    method: 'POST',
    url: '/ext/backtests',
    summary: 'Start a backtest of a grid bot, DCA bot or SmartTrade on the shipped candles; it runs in the background',
    tags,
    input: StartBacktest,
    successStatus: 201,
    handler: async ({ input, caller }) => presentBacktest(await backtests.start(caller.userId, input)),
  }),
  defineRoute({
    method: 'GET',
    url: '/ext/backtests',
    summary: "The caller's backtests, newest first, without their results",
    tags,
    handler: async ({ caller }) => (await backtests.list(caller.userId)).map(presentBacktest),
  }),
  defineRoute({
    method: 'GET',
    url: '/ext/backtests/:id',
    summary: 'One backtest: status, progress (0–100) and, once finished, its result',
    tags,
    input: Type.Object({ id: Id }),
    handler: async ({ input, caller }) => presentBacktest(await backtests.get(caller.userId, input.id)),
  }),
  defineRoute({
    method: 'GET',
    url: '/ext/backtests/:id/candles',
    summary: 'The candles a backtest walks, for a chart: at most 5,000, merged into coarser ones for longer periods; `time` in Unix seconds',
    tags,
    input: Type.Object({ id: Id }),
    handler: async ({ input, caller }) =>
      (await backtests.candles(caller.userId, input.id)).map((candle) => ({
        time: candle.time.getTime() / 1000,
        open: candle.open.toFixed(),
        high: candle.high.toFixed(),
        low: candle.low.toFixed(),
        close: candle.close.toFixed(),
      })),
  }),
  defineRoute({
    method: 'DELETE',
    url: '/ext/backtests/:id',
    summary: 'Cancel a running backtest, or remove one that has ended',
    tags,
    input: Type.Object({ id: Id }),
    handler: async ({ input, caller }) => presentBacktest(await backtests.cancel(caller.userId, input.id)),
  }),
];
