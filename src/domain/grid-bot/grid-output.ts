/** What one step of a grid bot produces, collected as it goes. */
import type { Command, LogEvent, Side } from '../automation.ts';
import type { Decimal } from '../../shared/decimal.ts';

/** One completed buy -> sell pair, as a row of the bot's profits. */
export interface GridProfitRecord {
  /** The pair's buy line, which gets the next buy order. */
  lineId: number;
  linePrice: Decimal;
  side: Side | null;
  orderPlaced: boolean;
  /** Quote currency, fees included. */
  profit: Decimal;
  /** At the quote currency's dollar rate when the pair completed; null when no rate was known. */
  usdProfit: Decimal | null;
  at: Date;
}

export class GridOutput {
  readonly commands: Command[] = [];
  readonly events: LogEvent[] = [];
  readonly records: GridProfitRecord[] = [];

  constructor(readonly at: Date) {}

  log(message: string): void {
    this.events.push({ message, at: this.at });
  }
}
