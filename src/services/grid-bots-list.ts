/**
 * Which grid bots a list shows and in what order: the reference's filters (accounts, state,
 * creation date, base and quote currency) and its seven sort fields, ties broken by id.
 */
import type { GridBotState } from '../domain/grid-bot/grid-bot-state.ts';
import { isEnabled } from '../domain/grid-bot/grid-bot-state.ts';
import type { Automation } from '../engine/automation-kind.ts';
import type { Decimal } from '../shared/decimal.ts';
import type { UserMode } from './repositories.ts';

export const GRID_SORT_FIELDS = ['current_profit', 'profit', 'bot_id', 'pair', 'created_at', 'updated_at', 'name'] as const;
export type GridSortField = (typeof GRID_SORT_FIELDS)[number];

export interface GridBotFilter {
  /** Only bots on accounts of this mode (paper or real). */
  mode?: UserMode;
  accountIds?: readonly number[];
  state?: 'enabled' | 'disabled';
  sortBy?: GridSortField;
  sortDirection?: 'asc' | 'desc';
  limit: number;
  offset: number;
  /** Created at or after. */
  from?: Date;
  base?: string;
  quote?: string;
}

type Bot = Automation<GridBotState>;

/** The page of bots the filter asks for, sorted (descending unless asked otherwise). */
export function selectGridBots(all: readonly Bot[], filter: GridBotFilter): Bot[] {
  const accountIds = filter.accountIds && filter.accountIds.length > 0 ? new Set(filter.accountIds) : undefined;
  const base = filter.base?.toUpperCase();
  const quote = filter.quote?.toUpperCase();
  const bots = all.filter(
    (bot) =>
      (accountIds === undefined || accountIds.has(bot.accountId)) &&
      (filter.state === undefined || isEnabled(bot.state) === (filter.state === 'enabled')) &&
      (filter.from === undefined || bot.createdAt >= filter.from) &&
      (base === undefined || bot.state.config.base === base) &&
      (quote === undefined || bot.state.config.quote === quote),
  );
  bots.sort(comparator(filter.sortBy ?? 'bot_id'));
  if ((filter.sortDirection ?? 'desc') === 'desc') bots.reverse();
  return bots.slice(filter.offset, filter.offset + filter.limit);
}

const byText = (pick: (bot: Automation<GridBotState>) => string) => (a: Automation<GridBotState>, b: Automation<GridBotState>) =>
  pick(a).localeCompare(pick(b)) || a.id - b.id;
const byNumber = (pick: (bot: Automation<GridBotState>) => Decimal | number) => (a: Automation<GridBotState>, b: Automation<GridBotState>) => {
  const [x, y] = [pick(a), pick(b)];
  const order = typeof x === 'number' ? x - (y as number) : x.cmp(y as Decimal);
  return order || a.id - b.id;
};

function comparator(field: GridSortField) {
  switch (field) {
    case 'current_profit':
    case 'profit':
      return byNumber((bot) => bot.state.figures.profit);
    case 'pair':
      return byText((bot) => bot.state.config.pair);
    case 'name':
      return byText((bot) => bot.state.config.name);
    case 'created_at':
      return byNumber((bot) => bot.createdAt.getTime());
    case 'updated_at':
      return byNumber((bot) => bot.updatedAt.getTime());
    case 'bot_id':
      return byNumber((bot) => bot.id);
  }
}
