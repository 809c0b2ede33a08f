/**
 * What a TradingView signal does to its DCA bot, through the same services as the REST API, so
 * that a signal is refused exactly where the equivalent request would be. Each action answers a
 * plain sentence for the bot's log, or throws an ApiError saying why it did nothing. The action
 * carries the signal's id into the bot, which stores a mark of it with the effect: a signal run
 * again (after a crash) finds there that it took effect, and does nothing twice.
 */
import type { Deal } from '../domain/dca-bot/deal.ts';
import type { AccountsService } from '../services/accounts.service.ts';
import { type Exchange, ExchangeError, type Ticker } from '../exchanges/exchange.ts';
import type { Bot, DcaBotsService } from '../services/dca-bots.service.ts';
import type { DealsService } from '../services/deals.service.ts';
import type { MarketsService } from '../services/markets.service.ts';
import { Decimal, dec } from '../shared/decimal.ts';
import { errors } from '../shared/errors.ts';
import type { Signal } from './signal-body.ts';

/** The market has no price for the pair yet (a server just started, an exchange unreachable). */
export class NoPriceYet extends Error {
  override readonly name = 'NoPriceYet';
}

export class SignalActions {
  constructor(
    private readonly bots: DcaBotsService,
    private readonly deals: DealsService,
    private readonly accounts: AccountsService,
    private readonly markets: MarketsService,
  ) {}

  /** What the signal did, when the bot's mark says it already took effect (run again after a crash). */
  doneBefore(bot: Bot, signal: Signal, signalId: string): string | undefined {
    const mark = bot.state.signals?.find((candidate) => candidate.id === signalId);
    if (!mark) return undefined;
    const deals = mark.deals.map((id) => `deal ${id}`).join(', ');
    const pair = bot.state.deals.find((deal) => mark.deals.includes(deal.id))?.pair;
    const done =
      signal.action === 'start_deal' ? `${deals} started${pair === undefined ? '' : ` on ${pair}`}`
      : signal.action === 'add_funds_in_quote' ? `funds added to ${deals} at market`
      : `${deals} closed at market`;
    return `${done} (found done after a restart)`;
  }

  async run(bot: Bot, signal: Signal, signalId: string): Promise<string> {
    switch (signal.action) {
      case 'start_deal': {
        await this.ticker(await this.accounts.exchangeForId(bot.accountId), signal.pair ?? bot.state.config.pairs[0]!);
        const deal = await this.bots.startNewDeal(bot.userId, bot.id, {
          ...(signal.pair === undefined ? {} : { pair: signal.pair }),
          skipSignalChecks: false,
          skipOpenDealsChecks: false,
          onlyForEnabled: true,
          signalId,
        });
        return `deal ${deal.id} started on ${deal.pair}`;
      }
      case 'close_at_market_price':
      case 'close_at_market_price_all':
        return this.closeAtMarket(bot, signal.action === 'close_at_market_price' ? signal.pair : undefined, signalId);
      case 'add_funds_in_quote':
        return this.addFunds(bot, signal, signalId);
    }
  }

  private async closeAtMarket(bot: Bot, pair: string | undefined, signalId: string): Promise<string> {
    const closing = bot.state.deals.filter((deal) => pair === undefined || deal.pair === pair);
    if (closing.length === 0) throw errors.unprocessable('The bot has no active deal to close');
    const after = await this.bots.closeForSignal(bot, signalId, pair);
    const closed = after.state.signals?.find((mark) => mark.id === signalId)?.deals ?? [];
    if (closed.length === 0) throw errors.unprocessable("The bot's deals are already closing");
    return `${closed.map((id) => `deal ${id}`).join(', ')} closed at market`;
  }

  /** The pair's price: a signal waits (NoPriceYet) rather than fail while the market has none. */
  private async ticker(exchange: Exchange, pair: string): Promise<Ticker> {
    try {
      const ticker = await exchange.ticker(pair);
      if (ticker.last.gt(0)) return ticker;
    } catch (error) {
      if (!(error instanceof ExchangeError)) throw error;
    }
    throw new NoPriceYet(`No price of ${pair} yet`);
  }

  /** The quote volume becomes a base amount at the touch price, rounded down to the lot step. */
  private async addFunds(bot: Bot, signal: Signal, signalId: string): Promise<string> {
    const pair = signal.pair ?? (bot.state.config.pairs.length === 1 ? bot.state.config.pairs[0]! : undefined);
    if (pair === undefined) throw errors.recordInvalid({ pair: ['is missing'] });
    const deal = activeDeals(bot, pair).at(-1);
    if (!deal) throw errors.unprocessable(`The bot has no active deal on ${pair}`);
    const exchange = await this.accounts.exchangeForId(bot.accountId);
    const [ticker, market] = await Promise.all([this.ticker(exchange, pair), this.markets.market(exchange.marketCode, pair)]);
    const price = deal.settings.strategy === 'long' ? ticker.ask : ticker.bid;
    const amount = dec(signal.volume!).div(price).toNearest(market.rules.lotStep, Decimal.ROUND_DOWN);
    if (amount.lte(0)) throw errors.unprocessable(`${signal.volume} ${deal.quote} is less than one lot of ${pair}`);
    await this.deals.act(bot.userId, deal.id, { type: 'add_funds', amount: amount.toFixed(), price: null }, signalId);
    return `${amount.toFixed()} ${deal.base} (${signal.volume} ${deal.quote}) added to deal ${deal.id} at market`;
  }
}

function activeDeals(bot: Bot, pair: string): Deal[] {
  return bot.state.deals.filter((deal) => deal.pair === pair);
}
