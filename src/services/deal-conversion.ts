/**
 * Converting a DCA deal into a SmartTrade (POST /ver1/deals/:id/convert_to_smart_trade): the
 * deal's position goes on as a smart sell on the coins it holds, entered at the deal's average
 * price, with the take-profit steps it has not completed (their prices and shares of what is
 * left) and its stop loss. The deal ends first, `cancelled` with the conversion in its log, so
 * that its orders release the coins; if the SmartTrade is then refused, the coins stay on the
 * account and the refusal is answered. Only an active long deal that has bought and is not
 * closing can be converted (smart_trade_convertable).
 */
import { stopLossPrice } from '../domain/dca-bot/deal-exits.ts';
import { averagePrice, type Deal, isLong, position } from '../domain/dca-bot/deal.ts';
import type { StopLossInput, TakeProfitInput } from '../domain/smart-trade/settings-input.ts';
import { dec, floorToStep } from '../shared/decimal.ts';
import { ApiError } from '../shared/errors.ts';
import type { DcaBotsService } from './dca-bots.service.ts';
import type { DealsService } from './deals.service.ts';
import type { MarketsService } from './markets.service.ts';
import type { AccountsService } from './accounts.service.ts';
import type { CreateSmartTradeInput, SmartTradesService, SmartTradeView } from './smart-trades.service.ts';

export interface ConversionDeps {
  deals: DealsService;
  bots: DcaBotsService;
  smartTrades: SmartTradesService;
  accounts: AccountsService;
  markets: MarketsService;
}

export const isConvertible = (deal: Deal) => deal.closedAt === null && isLong(deal) && deal.status === 'bought' && position(deal).gt(0);

export async function convertDealToSmartTrade(deps: ConversionDeps, userId: number, dealId: number, stopBot: boolean): Promise<SmartTradeView> {
  const view = await deps.deals.get(userId, dealId);
  const { deal } = view;
  if (!isConvertible(deal)) throw new ApiError(403, 'Forbidden', 'Only an active long deal that has bought and is not closing can be converted');
  const account = await deps.accounts.get(userId, view.accountId);
  const market = await deps.markets.market(account.marketCode, deal.pair);
  const input: CreateSmartTradeInput = {
    account_id: view.accountId,
    pair: deal.pair,
    skip_enter_step: true,
    note: `Converted from deal #${deal.id}`,
    position: {
      type: 'buy',
      order_type: 'market',
      units: { value: floorToStep(position(deal), market.rules.lotStep).toFixed() },
      price: { value: averagePrice(deal).toDecimalPlaces(8).toFixed() },
    },
    take_profit: takeProfitOf(deal),
    stop_loss: stopLossOf(deal),
  };
  await deps.deals.act(userId, dealId, { type: 'convert' });
  if (stopBot) await deps.bots.setEnabled(userId, view.botId, false);
  return deps.smartTrades.create(userId, input);
}

/** The steps still to complete, their shares of what is left adding up to 100. */
function takeProfitOf(deal: Deal): TakeProfitInput {
  const open = deal.tpSteps.filter((step) => (step.status === 'idle' || step.status === 'placed') && step.price !== null);
  if (open.length === 0) {
    return deal.takeProfitPrice === null ? { enabled: false } : { enabled: true, steps: [limitStep(deal.takeProfitPrice, '100')] };
  }
  const total = open.reduce((sum, step) => sum.plus(dec(step.amountPercentage)), dec(0));
  let given = dec(0);
  const steps = open.map((step, index) => {
    const share = index === open.length - 1 ? dec(100).minus(given) : dec(step.amountPercentage).div(total).times(100).toDecimalPlaces(2);
    given = given.plus(share);
    return limitStep(step.price!, share.toFixed());
  });
  return { enabled: true, steps };
}

const limitStep = (price: string, volume: string) => ({ order_type: 'limit' as const, volume, price: { value: price, type: 'last' as const } });

function stopLossOf(deal: Deal): StopLossInput {
  const stop = stopLossPrice(deal);
  if (!stop) return { enabled: false };
  return { enabled: true, order_type: 'market', conditional: { price: { value: stop.toDecimalPlaces(8).toFixed(), type: 'bid' } } };
}
