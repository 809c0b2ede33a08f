/**
 * The streamed entities, rendered by the same services and presenters as the REST routes. Grid
 * bots change the most often, so theirs skips the account lookup in the database that
 * GridBotsService.get makes: accounts are remembered for ACCOUNT_TTL_MS (a renamed account shows
 * in streamed grid bots within that time).
 */
import type { Engine } from '../engine/engine.ts';
import { gridBotKind } from '../engine/kinds/grid-bot.kind.ts';
import { presentDeal } from '../http/presenters/deal.presenter.ts';
import { presentGridBot, presentGridProfit } from '../http/presenters/grid-bot.presenter.ts';
import { presentSmartTrade } from '../http/presenters/smart-trade.presenter.ts';
import type { AccountsService } from '../services/accounts.service.ts';
import type { DealsService } from '../services/deals.service.ts';
import { gridProfitRowOf, type GridBotsService } from '../services/grid-bots.service.ts';
import type { MarketsService } from '../services/markets.service.ts';
import type { Account } from '../services/repositories.ts';
import type { SmartTradesService } from '../services/smart-trades.service.ts';
import type { EntityRenderers } from './stream-hub.ts';

export interface RendererServices {
  deals: DealsService;
  accounts: AccountsService;
  smartTrades: SmartTradesService;
  gridBots: GridBotsService;
  markets: MarketsService;
  engine: Pick<Engine, 'get'>;
}

const ACCOUNT_TTL_MS = 5000;
const MAX_REMEMBERED = 10_000;

export function entityRenderers(services: RendererServices): EntityRenderers {
  const { deals, accounts, smartTrades, markets, engine } = services;
  const accountOf = rememberedAccounts(accounts);
  return {
    // As GET /ver1/deals/:id/show, events included.
    deal: async (userId, dealId) => {
      const view = await deals.get(userId, dealId);
      const [account, events] = await Promise.all([accounts.get(userId, view.accountId).catch(() => undefined), deals.events(dealId)]);
      return presentDeal(view, account?.name ?? '', events);
    },
    smartTrade: async (userId, id) => presentSmartTrade(await smartTrades.show(userId, id)),
    // As GridBotsService.get: a deleted or foreign bot is not shown.
    gridBot: async (userId, id) => {
      const bot = await engine.get(gridBotKind, id);
      if (!bot || bot.userId !== userId || bot.state.status === 'deleted') return undefined;
      const account = await accountOf(userId, bot.accountId);
      const currentPrice = await markets.ticker(account.marketCode, bot.state.config.pair).then((ticker) => ticker.last, () => undefined);
      return presentGridBot({ bot, account, currentPrice });
    },
    gridProfit: (botId, record) => ({ type: 'GridBotProfit', grid_bot_id: botId, ...presentGridProfit(gridProfitRowOf(record)) }),
  };
}

function rememberedAccounts(accounts: AccountsService): (userId: number, accountId: number) => Promise<Account> {
  const remembered = new Map<number, { account: Promise<Account>; until: number }>();
  return (userId, accountId) => {
    const now = Date.now();
    const entry = remembered.get(accountId);
    if (entry && entry.until > now) return entry.account;
    if (remembered.size >= MAX_REMEMBERED) remembered.clear();
    const account = accounts.get(userId, accountId);
    remembered.set(accountId, { account, until: now + ACCOUNT_TTL_MS });
    account.catch(() => remembered.delete(accountId));
    return account;
  };
}
