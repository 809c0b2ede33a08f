/**
 * The contract of the DCA deals store, as the DCA bot kind's records fill it: the SQL store (its
 * record writer inside the engine's batch) and the in-memory store of backtests (its record sink).
 * A setup gives a store, the way to write a batch of records and to log a bot's lines (as the
 * engine stores them, before the batch's records), and a new user with two accounts and two bots
 * (automation ids) to refer to; deal ids must be new to the store.
 */
import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { dealSettings } from '../domain/dca-bot/test-support/fixtures.ts';
import { type Deal, newDeal } from '../domain/dca-bot/deal.ts';
import { type DcaRecord, dealLinePrefix } from '../domain/dca-bot/step-output.ts';
import type { KindRecords } from '../engine/engine-store.ts';
import type { DcaStore, DealFilter } from '../services/deals.service.ts';

export interface DcaStoreSubject {
  store: DcaStore;
  write(batch: KindRecords): Promise<void>;
  /** Logs lines of a bot, each at its time, as a batch of the engine logs them. */
  log(botId: number, lines: Array<{ message: string; at: number }>): Promise<void>;
  userId: number;
  accountIds: [number, number];
  botIds: [number, number];
  /** Deal ids of this test start above this one. */
  dealIdBase: number;
}

const DAY = 86_400_000;
const T0 = Date.UTC(2024, 0, 10);

export function dcaDealsContract(name: string, setup: () => Promise<DcaStoreSubject>): void {
  describe(`${name} honours the DCA deals store contract`, () => {
    let subject: DcaStoreSubject;
    let store: DcaStore;

    beforeEach(async () => {
      subject = await setup();
      store = subject.store;
    });

    const deal = (k: number, changes: Partial<Deal> = {}): Deal => ({
      ...newDeal({ id: subject.dealIdBase + k, no: k, pair: 'USDT_ETH', base: 'ETH', quote: 'USDT', settings: dealSettings(), at: T0 + k * DAY }),
      ...changes,
    });
    const closed = (k: number, status: Deal['status'], profit: string, closedAt: number, changes: Partial<Deal> = {}) =>
      deal(k, { status, closedAt, updatedAt: closedAt, finalProfit: profit, usdProfit: profit, btcProfit: '0.001', entryVolume: '100', ...changes });
    const record = (d: Deal, bot = 0, account = 0): DcaRecord => ({ type: 'deal', deal: d, botName: `bot ${bot}`, accountId: subject.accountIds[account]!, userId: subject.userId });
    const write = (records: DcaRecord[], bot = 0) => subject.write([{ automationId: subject.botIds[bot]!, records }]);
    const filter = (changes: Partial<DealFilter> = {}): DealFilter => ({ userId: subject.userId, order: 'created_at', direction: 'asc', limit: 100, offset: 0, ...changes });
    const ids = (deals: Array<{ deal: Deal }>) => deals.map((stored) => stored.deal.id - subject.dealIdBase);

    /** A deal's line as its bot logs it. */
    const line = (k: number, message: string, at = T0) => ({ message: `${dealLinePrefix('USDT_ETH', subject.dealIdBase + k)}${message}`, at });
    const log = (lines: Array<{ message: string; at: number }>, bot = 0) => subject.log(subject.botIds[bot]!, lines);
    const dealLog = async (k: number) =>
      (await store.dealEvents(subject.dealIdBase + k)).map((event) => `${event.message}${event.createdAt.getTime() === T0 ? '' : '+'}`);

    it("keeps the latest snapshot of each deal, and reads its log (its lines in the bot's, not its milestones)", async () => {
      await log([line(1, 'Base order placed')]);
      await write([record(deal(1, { createdAt: T0 }))]);
      await log([line(1, 'Completed', T0 + DAY)]);
      await write([
        record(closed(1, 'completed', '2.5', T0 + DAY, { createdAt: T0 })),
        // Milestones are for notifications; the deal's log keeps only its lines.
        { type: 'deal_milestone', dealId: subject.dealIdBase + 1, milestone: 'closed', safetyOrders: 0, status: 'completed', at: T0 + DAY },
      ]);
      const found = await store.findDeal(subject.dealIdBase + 1);
      assert.equal(found?.deal.status, 'completed');
      assert.deepEqual({ ...found, deal: undefined }, { deal: undefined, botId: subject.botIds[0], botName: 'bot 0', accountId: subject.accountIds[0], userId: subject.userId });
      assert.deepEqual((await store.dealEvents(subject.dealIdBase + 1)).map((event) => [event.message, event.createdAt.getTime()]), [['Base order placed', T0], ['Completed', T0 + DAY]]);
      assert.equal(await store.findDeal(subject.dealIdBase + 99), undefined);
      assert.deepEqual(await store.dealEvents(subject.dealIdBase + 99), []);
    });

    it("reads each deal's lines in the order logged, apart from other deals' and the bot's own", async () => {
      await log([{ message: 'Bot started', at: T0 }, line(3, 'a'), line(4, 'x'), line(3, 'b'), line(3, 'c', T0 + DAY), line(4, 'y')]);
      await write([record(deal(3, { createdAt: T0 })), record(deal(4, { createdAt: T0 })), record(deal(34, { createdAt: T0 }))]);
      await log([line(3, 'd', T0 + DAY), line(34, 'other')]);
      await log([line(3, 'the other bot’s')], 1);
      assert.deepEqual(await dealLog(3), ['a', 'b', 'c+', 'd+']);
      assert.deepEqual(await dealLog(4), ['x', 'y']);
      assert.deepEqual(await dealLog(34), ['other']);
    });

    it('lists deals by user, bot, account, period, scope and currency, sorted and paged', async () => {
      await write([record(deal(1)), record(closed(2, 'completed', '3', T0 + 5 * DAY)), record(closed(3, 'cancelled', '0', T0 + 4 * DAY), 0, 1)]);
      await write([record(closed(4, 'completed', '1', T0 + 6 * DAY), 1)], 1);
      assert.deepEqual(ids(await store.listDeals(filter())), [1, 2, 3, 4]);
      assert.deepEqual(ids(await store.listDeals(filter({ direction: 'desc', limit: 2, offset: 1 }))), [3, 2]);
      assert.deepEqual(ids(await store.listDeals(filter({ botId: subject.botIds[1] }))), [4]);
      assert.deepEqual(ids(await store.listDeals(filter({ accountId: subject.accountIds[1] }))), [3]);
      assert.deepEqual(ids(await store.listDeals(filter({ accountIds: [subject.accountIds[1]] }))), [3]);
      assert.deepEqual(ids(await store.listDeals(filter({ from: new Date(T0 + 2 * DAY), to: new Date(T0 + 3 * DAY) }))), [2, 3]);
      assert.deepEqual(ids(await store.listDeals(filter({ scope: 'active' }))), [1]);
      assert.deepEqual(ids(await store.listDeals(filter({ scope: 'finished' }))), [2, 3, 4]);
      assert.deepEqual(ids(await store.listDeals(filter({ scope: 'cancelled' }))), [3]);
      assert.deepEqual(ids(await store.listDeals(filter({ order: 'closed_at', direction: 'desc' }))), [4, 2, 3, 1]);
      assert.deepEqual(ids(await store.listDeals(filter({ order: 'profit', direction: 'desc' }))), [2, 4, 3, 1]);
      assert.deepEqual(ids(await store.listDeals(filter({ base: 'BTC' }))), []);
      assert.deepEqual(await store.listDeals(filter({ userId: subject.userId + 1000 })), []);
    });

    it('sums the profits of the closed deals that count, by currency and by closing day', async () => {
      await write([
        record(closed(1, 'completed', '2.5', T0 + DAY)),
        record(closed(2, 'panic_sold', '-1', T0 + DAY + 1000)),
        record(closed(3, 'cancelled', '9', T0 + DAY)),
        record(closed(4, 'completed', '4', T0 + 3 * DAY)),
        record(deal(5)),
      ]);
      const sums = await store.profitSums({ userId: subject.userId });
      assert.deepEqual(sums.map((sum) => ({ ...sum, profit: Number(sum.profit), usd: Number(sum.usd), btc: Number(sum.btc) })), [
        { currency: 'USDT', profit: 5.5, usd: 5.5, btc: 0.003, count: 3 },
      ]);
      const days = await store.profitByDay({ userId: subject.userId, closedFrom: new Date(T0), closedUntil: new Date(T0 + 2 * DAY) });
      assert.deepEqual(days.map((day) => [day.day, Number(day.usd)]), [['2024-01-11', 1.5]]);
      assert.deepEqual(await store.statusCounts(subject.botIds[0]), { completed: 2, panic_sold: 1, cancelled: 1, base_order_placed: 1 });
    });

    it('keeps a user’s pairs blacklist', async () => {
      assert.deepEqual(await store.blacklist(subject.userId), []);
      await store.setBlacklist(subject.userId, ['USDT_ETH', 'USDT_BTC']);
      await store.setBlacklist(subject.userId, ['USDT_SOL']);
      assert.deepEqual(await store.blacklist(subject.userId), ['USDT_SOL']);
    });
  });
}
