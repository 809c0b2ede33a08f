/**
 * The contract of grid bots' profit rows, as the grid kind's records fill them: the SQL store (the
 * engine's store logging them with its event rows) and the in-memory store of backtests (its record sink). A setup gives a store,
 * the way to write a batch of records, and two new bots (automation ids).
 */
import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import type { GridProfitRecord } from '../domain/grid-bot/grid-output.ts';
import type { KindRecords } from '../engine/engine-store.ts';
import type { GridProfitsStore } from '../services/grid-bots.service.ts';
import { dec } from '../shared/decimal.ts';

export interface GridProfitsSubject {
  store: GridProfitsStore;
  write(batch: KindRecords): Promise<void>;
  botIds: [number, number];
}

const at = (minute: number) => new Date(Date.UTC(2024, 0, 1, 0, minute));
const record = (lineId: number, profit: string, minute: number, usd: string | null = profit): GridProfitRecord => ({
  lineId, linePrice: dec('59000.50'), side: 'buy', orderPlaced: true, profit: dec(profit), usdProfit: usd === null ? null : dec(usd), at: at(minute),
});

export function gridProfitsContract(name: string, setup: () => Promise<GridProfitsSubject>): void {
  describe(`${name} honours the grid profits contract`, () => {
    let subject: GridProfitsSubject;

    beforeEach(async () => {
      subject = await setup();
    });

    it('answers a bot’s rows newest first, exact, within an inclusive time range', async () => {
      const [bot, other] = subject.botIds;
      await subject.write([{ automationId: bot, records: [record(1, '0.123456789', 1), record(2, '1.5', 2, null)] }, { automationId: other, records: [record(9, '7', 2)] }]);
      await subject.write([{ automationId: bot, records: [record(3, '-0.25', 3)] }]);
      const rows = await subject.store.profits(bot, {});
      assert.deepEqual(rows.map((row) => [row.lineId, dec(row.linePrice).toFixed(), row.side, row.orderPlaced, dec(row.profit).toFixed(), row.usdProfit && dec(row.usdProfit).toFixed(), row.createdAt.getTime()]), [
        [3, '59000.5', 'buy', true, '-0.25', '-0.25', at(3).getTime()],
        [2, '59000.5', 'buy', true, '1.5', null, at(2).getTime()],
        [1, '59000.5', 'buy', true, '0.123456789', '0.123456789', at(1).getTime()],
      ]);
      assert.deepEqual((await subject.store.profits(bot, { from: at(2), to: at(3) })).map((row) => row.lineId), [3, 2]);
      assert.deepEqual((await subject.store.profits(bot, { to: at(1) })).map((row) => row.lineId), [1]);
      assert.deepEqual((await subject.store.profits(other, {})).map((row) => row.lineId), [9]);
    });
  });
}
