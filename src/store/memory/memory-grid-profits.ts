/** Grid bots' profit rows in memory, for backtests: the grid kind's record sink and its reader. */
import type { GridProfitRecord } from '../../domain/grid-bot/grid-output.ts';
import type { KindRecords } from '../../engine/engine-store.ts';
import { gridProfitRowOf, type GridProfitRow, type GridProfitsStore } from '../../services/grid-bots.service.ts';

export class MemoryGridProfits implements GridProfitsStore {
  private readonly rows = new Map<number, GridProfitRow[]>();

  readonly write = (batch: KindRecords): void => {
    for (const { automationId, records } of batch) {
      let rows = this.rows.get(automationId);
      if (!rows) this.rows.set(automationId, (rows = []));
      for (const record of records as GridProfitRecord[]) rows.push(gridProfitRowOf(record));
    }
  };

  /** Newest first; `from` and `to` bound the booking time, both inclusive. */
  async profits(botId: number, range: { from?: Date; to?: Date }): Promise<GridProfitRow[]> {
    return (this.rows.get(botId) ?? [])
      .filter((row) => (range.from === undefined || row.createdAt >= range.from) && (range.to === undefined || row.createdAt <= range.to))
      .reverse();
  }
}
