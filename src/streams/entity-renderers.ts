/** The streamed entities, rendered by the same services and presenters as the REST routes. */
import type { GridProfitRecord } from '../domain/grid-bot/grid-output.ts';
import { presentDeal } from '../http/presenters/deal.presenter.ts';
import { presentGridBot, presentGridProfit } from '../http/presenters/grid-bot.presenter.ts';
import { presentSmartTrade } from '../http/presenters/smart-trade.presenter.ts';
import type { AccountsService } from '../services/accounts.service.ts';
import type { DealsService } from '../services/deals.service.ts';
import type { GridBotsService } from '../services/grid-bots.service.ts';
import type { SmartTradesService } from '../services/smart-trades.service.ts';
import type { EntityRenderers } from './stream-hub.ts';

export interface RendererServices {
  deals: DealsService;
  accounts: AccountsService;
  smartTrades: SmartTradesService;
  gridBots: GridBotsService;
}

export function entityRenderers(services: RendererServices): EntityRenderers {
  const { deals, accounts, smartTrades, gridBots } = services;
  return {
    // As GET /ver1/deals/:id/show, events included.
    deal: async (userId, dealId) => {
      const view = await deals.get(userId, dealId);
      const [account, events] = await Promise.all([accounts.get(userId, view.accountId).catch(() => undefined), deals.events(dealId)]);
      return presentDeal(view, account?.name ?? '', events);
    },
    smartTrade: async (userId, id) => presentSmartTrade(await smartTrades.show(userId, id)),
    gridBot: async (userId, id) => presentGridBot(await gridBots.get(userId, id)),
    gridProfit: (botId, record) => ({ type: 'GridBotProfit', grid_bot_id: botId, ...presentGridProfit(profitRow(record)) }),
  };
}

function profitRow(record: GridProfitRecord) {
  return {
    lineId: record.lineId,
    linePrice: record.linePrice.toFixed(),
    side: record.side,
    orderPlaced: record.orderPlaced,
    profit: record.profit.toFixed(),
    usdProfit: record.usdProfit?.toFixed() ?? null,
    createdAt: record.at,
  };
}
