/**
 * /ext/backtests: backtests as background jobs of the running server, their stored results, bad
 * input answered before a job exists, cancellation, and a restart while one runs.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildApp, createLogger, openCore } from '../../src/app.ts';
import { prepareBacktestRun, type PrepareBacktest } from '../../src/backtest/backtest-jobs.ts';
import { prepareBacktest } from '../../src/backtest/backtest-request.ts';
import { NO_EXCHANGES } from '../../src/backtest/backtest-venue.ts';
import { shippedCandles } from '../../src/backtest/candle-series.ts';
import { runBacktest } from '../../src/backtest/runner.ts';
import { loadConfig } from '../../src/config/config.ts';
import { assertRecordInvalid, postJson } from '../support/api.ts';
import { openTestDatabase } from '../support/database.ts';
import { type Credentials, signPayload } from '../support/signing.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

const GRID = { lower_price: '3700', upper_price: '4100', grids_quantity: 12, quantity_per_grid: '0.01' };
const REQUEST = { kind: 'grid', settings: GRID, pair: 'USDT_BTC', from: '2019-01-01', to: '2019-01-03' };
/** Years of 4h candles, walked only once cancelled (`waitingForCancel`). */
const LONG = { ...REQUEST, from: '2016-06-01', to: '2025-10-01', timeframe: '4h', allow_gaps: true };

/**
 * A backtest over LONG's years starts walking only once it is cancelled, so that a cancel always
 * finds it running: walked at once, it ended in 50 to 120 ms, sometimes before the cancel came.
 */
const waitingForCancel: PrepareBacktest = async (request, logger) => {
  const started = await prepareBacktestRun(request, logger);
  if (request.from !== LONG.from) return started;
  return {
    close: () => started.close(),
    run: async (options = {}) => {
      await new Promise<void>((resolve) => {
        if (options.signal?.aborted) resolve();
        options.signal?.addEventListener('abort', () => resolve(), { once: true });
      });
      return started.run(options);
    },
  };
};

async function directResult(request: typeof REQUEST) {
  const prepared = prepareBacktest(request);
  return runBacktest({ ...prepared, series: shippedCandles(prepared.candles) });
}

describe('/ext/backtests', () => {
  let t: TestApp;
  let user: Credentials;
  before(async () => {
    t = await startTestApp({}, { prepareBacktest: waitingForCancel });
    user = await t.createKey({ user: 'tester', permissions: ['BOTS_READ', 'BOTS_WRITE'] });
  });
  after(() => t.close());

  const get = (target: string, credentials = user) => t.request({ path: target, credentials });
  const remove = (id: number) => t.request({ method: 'DELETE', path: `/ext/backtests/${id}`, credentials: user });

  it('starts a backtest that runs in the background and stores the result a direct run gives', async () => {
    const created = await postJson(t, '/ext/backtests', REQUEST, user);
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.status, 'running');
    assert.equal(created.body.kind, 'grid');
    assert.equal(created.body.result, undefined);
    await t.core.backtests.idle();
    const shown = await get(`/ext/backtests/${created.body.id}`);
    assert.equal(shown.status, 200, shown.text);
    assert.equal(shown.body.status, 'finished');
    assert.equal(shown.body.progress, 100);
    assert.equal(typeof shown.body.finished_at, 'string');
    assert.deepEqual(shown.body.result, JSON.parse(JSON.stringify(await directResult(REQUEST))));
    const listed = await get('/ext/backtests');
    assert.equal(listed.body[0].id, created.body.id);
    assert.equal(listed.body[0].result, undefined);
  });

  it('answers the candles a backtest walks for a chart, merged when there are more than 5,000, and only to its owner', async () => {
    const created = await postJson(t, '/ext/backtests', REQUEST, user);
    const candles = await get(`/ext/backtests/${created.body.id}/candles`);
    assert.equal(candles.status, 200, candles.text);
    const hourly = shippedCandles(prepareBacktest(REQUEST).candles).candles;
    assert.equal(candles.body.length, hourly.length);
    assert.deepEqual(candles.body[0], {
      time: hourly[0]!.time.getTime() / 1000,
      open: hourly[0]!.open.toFixed(),
      high: hourly[0]!.high.toFixed(),
      low: hourly[0]!.low.toFixed(),
      close: hourly[0]!.close.toFixed(),
    });
    const long = await postJson(t, '/ext/backtests', LONG, user);
    const merged = await get(`/ext/backtests/${long.body.id}/candles`);
    const walked = shippedCandles(prepareBacktest(LONG).candles).candles;
    assert.ok(walked.length > 5000 && merged.body.length <= 5000 && merged.body.length > 2500, `${walked.length} → ${merged.body.length}`);
    assert.equal(merged.body[0].open, walked[0]!.open.toFixed());
    assert.equal(merged.body.at(-1).close, walked.at(-1)!.close.toFixed());
    await remove(long.body.id);
    const stranger = await t.createKey({ user: 'stranger', permissions: ['BOTS_READ'] });
    assert.equal((await get(`/ext/backtests/${created.body.id}/candles`, stranger)).status, 404);
    await t.core.backtests.idle();
  });

  it('answers bad input before any job exists: the fields it names, and the create endpoint’s own errors', async () => {
    const before = (await get('/ext/backtests')).body.length;
    assertRecordInvalid(await postJson(t, '/ext/backtests', { ...REQUEST, kind: 'spot', from: 'soon', pair: 'USDT_SOL' }, user), {
      kind: ['must be one of grid, dca, smart_trade'],
      from: ['must be a day (2021-01-31) or a UTC time (2021-01-31T12:00:00Z)'],
    });
    assertRecordInvalid(await postJson(t, '/ext/backtests', { ...REQUEST, settings: { ...GRID, grids_quantity: 'many' } }, user), {
      grids_quantity: ['is invalid'],
    });
    assertRecordInvalid(await postJson(t, '/ext/backtests', { ...REQUEST, pair: 'USDT_SOL' }, user), {
      pair: ['has no shipped candles (shipped: USDT_BTC, USDT_ETH); give a CSV file or an exchange to download from'],
    });
    const poor = await postJson(t, '/ext/backtests', { ...REQUEST, balances: 'USDT:20' }, user);
    assert.equal(poor.status, 400, poor.text);
    assert.match(poor.body.error_attributes.quantity_per_grid[0], /^Insufficient funds/);
    assert.equal((await get('/ext/backtests')).body.length, before);
  });

  it('cancels a running backtest, then removes it', async () => {
    const created = await postJson(t, '/ext/backtests', LONG, user);
    assert.equal(created.status, 201, created.text);
    const cancelled = await remove(created.body.id);
    assert.equal(cancelled.status, 200, cancelled.text);
    assert.equal(cancelled.body.status, 'cancelled');
    assert.ok(cancelled.body.progress < 100);
    assert.equal((await get(`/ext/backtests/${created.body.id}`)).body.status, 'cancelled');
    assert.equal((await remove(created.body.id)).status, 200);
    assert.equal((await get(`/ext/backtests/${created.body.id}`)).status, 404);
  });

  it('keeps each user’s backtests to that user, and needs BOTS_WRITE to start one', async () => {
    const created = await postJson(t, '/ext/backtests', REQUEST, user);
    await t.core.backtests.idle();
    const other = await t.createKey({ user: 'other', permissions: ['BOTS_READ', 'BOTS_WRITE'] });
    assert.equal((await get(`/ext/backtests/${created.body.id}`, other)).status, 404);
    assert.deepEqual((await get('/ext/backtests', other)).body, []);
    const reader = await t.createKey({ user: 'tester', permissions: ['BOTS_READ'] });
    assert.equal((await postJson(t, '/ext/backtests', REQUEST, reader)).status, 403);
  });
});

describe('a restart while a backtest runs', () => {
  it('runs the backtest again from the start and stores the same result', async () => {
    const db = await openTestDatabase();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tradeloop-backtest-restart-'));
    const config = loadConfig({ PAPER_FEED: 'manual', RATE_LIMIT_PER_MINUTE: '0', DATA_DIR: dataDir });
    const open = async () => {
      const core = await openCore(config, { db, logger: createLogger('silent'), connector: NO_EXCHANGES });
      await core.startTrading();
      return core;
    };
    try {
      const first = await open();
      await first.users.create('restart');
      const userId = (await first.users.findByName('restart'))!.id;
      const job = await first.backtests.start(userId, { ...REQUEST, to: '2019-01-05' });
      await first.close();
      assert.equal((await first.backtests.get(userId, job.id).catch(() => undefined))?.status ?? 'running', 'running');

      const second = await open();
      try {
        const key = await second.apiKeys.create({ userName: 'restart', name: 'k', permissions: ['BOTS_READ'], strict: false });
        await second.backtests.idle();
        const app = await buildApp(second);
        const target = `/public/api/ext/backtests/${job.id}`;
        const response = await app.inject({
          method: 'GET',
          url: target,
          headers: { APIKEY: key.api_key, Signature: signPayload({ apiKey: key.api_key, secret: key.secret! }, target) },
        });
        await app.close();
        const shown = response.json();
        assert.equal(shown.status, 'finished', response.body);
        assert.deepEqual(shown.result, JSON.parse(JSON.stringify(await directResult({ ...REQUEST, to: '2019-01-05' }))));
      } finally {
        await second.close();
      }
    } finally {
      await db.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
