/**
 * What a TradingView signal does to its DCA bot, through the same services as the REST API, so
 * that a signal is refused exactly where the equivalent request would be. Each action answers a
 * plain sentence for the bot's log, or throws an ApiError saying why it did nothing.
 */
import type { Deal } from '../domain/dca-bot/deal.ts';
import type { AccountsService } from '../services/accounts.service.ts';
import type { Bot, DcaBotsService } from '../services/dca-bots.service.ts';
import type { DealsService } from '../services/deals.service.ts';
import type { MarketsService } from '../services/markets.service.ts';
import { Decimal, dec } from '../shared/decimal.ts';
import { errors } from '../shared/errors.ts';
import type { Signal } from './signal-body.ts';

export class SignalActions {
  constructor(
    private readonly bots: DcaBotsService,
    private readonly deals: DealsService,
    private readonly accounts: AccountsService,
    private readonly markets: MarketsService,
  ) {}

  async run(bot: Bot, signal: Signal): Promise<string> {
    switch (signal.action) {
      case 'start_deal': {
        const deal = await this.bots.startNewDeal(bot.userId, bot.id, {
          ...(signal.pair === undefined ? {} : { pair: signal.pair }),
          skipSignalChecks: false,
          skipOpenDealsChecks: false,
          onlyForEnabled: true,
        });
        return `deal ${deal.id} started on ${deal.pair}`;
      }
      case 'close_at_market_price':
        return this.closeAtMarket(bot, activeDeals(bot, signal.pair!));
      case 'close_at_market_price_all':
        return this.closeAtMarket(bot, bot.state.deals);
      case 'add_funds_in_quote':
        return this.addFunds(bot, signal);
    }
  }

  private async closeAtMarket(bot: Bot, deals: readonly Deal[]): Promise<string> {
    if (deals.length === 0) throw errors.unprocessable('The bot has no active deal to close');
    for (const deal of deals) await this.deals.act(bot.userId, deal.id, { type: 'panic_sell' });
    return `${deals.map((deal) => `deal ${deal.id}`).join(', ')} closed at market`;
  }

  /** The quote volume becomes a base amount at the touch price, rounded down to the lot step. */
  private async addFunds(bot: Bot, signal: Signal): Promise<string> {
    const pair = signal.pair ?? (bot.state.config.pairs.length === 1 ? bot.state.config.pairs[0]! : undefined);
    if (pair === undefined) throw errors.recordInvalid({ pair: ['is missing'] });
    const deal = activeDeals(bot, pair).at(-1);
    if (!deal) throw errors.unprocessable(`The bot has no active deal on ${pair}`);
    const exchange = await this.accounts.exchangeForId(bot.accountId);
    const [ticker, market] = await Promise.all([exchange.ticker(pair), this.markets.market(exchange.marketCode, pair)]);
    const price = deal.settings.strategy === 'long' ? ticker.ask : ticker.bid;
    const amount = dec(signal.volume!).div(price).toNearest(market.rules.lotStep, Decimal.ROUND_DOWN);
    if (amount.lte(0)) throw errors.unprocessable(`${signal.volume} ${deal.quote} is less than one lot of ${pair}`);
    await this.deals.act(bot.userId, deal.id, { type: 'add_funds', amount: amount.toFixed(), price: null });
    return `${amount.toFixed()} ${deal.base} (${signal.volume} ${deal.quote}) added to deal ${deal.id} at market`;
  }
}

function activeDeals(bot: Bot, pair: string): Deal[] {
  return bot.state.deals.filter((deal) => deal.pair === pair);
}
