/**
 * Tells the trading story in the process log: every line an automation writes to its event log
 * (bot turned on or off, order placed, filled, deal closed with its profit, stop loss, failures)
 * is logged once its batch is stored, at `info`, or `warn` when it says something went wrong,
 * with the bot's kind and id so a reader can follow one bot through the log.
 */
import type { CommittedBatch } from './engine-store.ts';

export interface TradingLogger {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
}

const KIND_LABELS: Record<string, string> = {
  grid_bot: 'Grid bot',
  dca_bot: 'DCA bot',
  smart_trade: 'SmartTrade',
  trade: 'Trade',
};

/** Event lines that report a failure or a loss-limiting exit; the rest is the normal course. */
const WARNING = /\b(fail(ed|s)?|refused|not placed|not created|not confirmed|cannot|rejected|cancelled by the exchange|stop loss (triggered|filled)|closed by stop loss)\b|below the exchange minimum/i;

export function tradingLog(logger: TradingLogger): (batch: CommittedBatch) => void {
  return (batch) => {
    if (batch.events.length === 0) return;
    const owners = new Map(batch.automations.map((automation) => [automation.id, automation]));
    for (const event of batch.events) {
      const owner = owners.get(event.automationId);
      const kind = owner?.kind ?? 'automation';
      const fields = { kind, botId: event.automationId, ...(owner === undefined ? {} : { userId: owner.userId }) };
      const line = `${KIND_LABELS[kind] ?? kind} ${event.automationId}: ${event.message}`;
      if (WARNING.test(event.message)) logger.warn(fields, line);
      else logger.info(fields, line);
    }
  };
}
