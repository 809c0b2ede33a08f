/**
 * Starts the automation a backtest tests from the same JSON body its create endpoint takes
 * (`POST /ver1/grid_bots/manual`, `POST /ver1/bots/create_bot`, `POST /v2/smart_trades`):
 * checked by the same schema and the same service, so bad settings get the same
 * record_invalid field errors as over HTTP. The account and the pair are the backtest's.
 */
import { CreateBotInput, toParams } from '../http/schemas/dca-bot.ts';
import { CreateGridBot } from '../http/schemas/grid-bot.ts';
import { CreateSmartTrade } from '../http/schemas/smart-trade.ts';
import { compileValidator } from '../http/validation.ts';
import type { CreateGridBotParams } from '../services/grid-bots.service.ts';
import type { CreateSmartTradeInput } from '../services/smart-trades.service.ts';
import { errors } from '../shared/errors.ts';
import { BACKTEST_USER_ID, type BacktestVenue } from './backtest-venue.ts';

export const BOT_KINDS = ['grid', 'dca', 'smart_trade'] as const;
export type BotKind = (typeof BOT_KINDS)[number];

// Compiled on first use: compiling every create schema costs seconds a run of one kind never needs.
const validators = {
  grid: once(() => compileValidator<CreateGridBotParams>(CreateGridBot)),
  dca: once(() => compileValidator<{ account_id: number } & Record<string, unknown>>(CreateBotInput)),
  smart_trade: once(() => compileValidator<CreateSmartTradeInput>(CreateSmartTrade)),
};

function once<T>(make: () => T): () => T {
  let made: T | undefined;
  return () => (made ??= make());
}

/** Fields that say a body was written for another kind's create endpoint. */
const KIND_MARKERS: Record<BotKind, string[]> = {
  grid: ['upper_price', 'lower_price', 'grids_quantity'],
  dca: ['pairs', 'base_order_volume', 'safety_order_volume', 'take_profit'],
  smart_trade: ['position', 'take_profit', 'stop_loss'],
};

/** The settings as a JSON object; anything else is refused with the field named. */
export function settingsObject(settings: unknown): Record<string, unknown> {
  if (typeof settings !== 'object' || settings === null || Array.isArray(settings)) {
    throw errors.recordInvalid({ settings: ['must be a JSON object (the body of the create endpoint)'] });
  }
  return settings as Record<string, unknown>;
}

/** Refuses settings that plainly belong to another kind, naming it, before the schema's long list. */
export function checkKind(kind: BotKind, settings: Record<string, unknown>): void {
  const own = KIND_MARKERS[kind].some((field) => field in settings);
  if (own) return;
  const other = BOT_KINDS.find((candidate) => candidate !== kind && KIND_MARKERS[candidate].some((field) => field in settings));
  if (other) throw errors.recordInvalid({ kind: [`is ${kind}, but the settings are for ${other} (they hold ${KIND_MARKERS[other].filter((f) => f in settings).join(', ')})`] });
}

/** Creates and starts the automation; resolves with its id. */
export async function startAutomation(venue: BacktestVenue, kind: BotKind, settings: Record<string, unknown>, pair: string): Promise<number> {
  const accountId = venue.account.id;
  checkKind(kind, settings);
  switch (kind) {
    case 'grid': {
      const input = validators.grid()({ ...settings, account_id: accountId, pair });
      return (await venue.gridBots.create(BACKTEST_USER_ID, input)).bot.id;
    }
    case 'dca': {
      const { account_id: _account, ...params } = validators.dca()({ ...settings, account_id: accountId, pairs: [pair] });
      const bot = await venue.dcaBots.create(BACKTEST_USER_ID, accountId, toParams(params));
      await venue.dcaBots.setEnabled(BACKTEST_USER_ID, bot.id, true);
      return bot.id;
    }
    case 'smart_trade': {
      const input = validators.smart_trade()({ ...settings, account_id: accountId, pair });
      return (await venue.smartTrades.create(BACKTEST_USER_ID, input)).id;
    }
  }
}
