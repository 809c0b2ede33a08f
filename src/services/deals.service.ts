/**
 * DCA deals (api-reference §14): lists and shows from the deals table, where the bot's record
 * writer keeps a snapshot of every deal; an active deal is shown as its bot holds it now. Actions
 * go to the bot through the engine; what the deal's state refuses comes back as the reference's
 * error for that action.
 */
import { TransitionError } from '../domain/automation.ts';
import type { DealAction } from '../domain/dca-bot/deal-actions.ts';
import { DealActionError } from '../domain/dca-bot/deal-actions.ts';
import type { Deal } from '../domain/dca-bot/deal.ts';
import type { EngineOrder } from '../engine/automation-kind.ts';
import { dcaBotKind } from '../engine/kinds/dca-bot.kind.ts';
import type { Engine } from '../engine/engine.ts';
import type { Decimal } from '../shared/decimal.ts';
import { ApiError, errors } from '../shared/errors.ts';
import type { AccountsService } from './accounts.service.ts';
import type { MarketsService } from './markets.service.ts';
import type { UserMode } from './repositories.ts';
import { usdPrice } from './valuation.ts';

export interface StoredDeal {
  deal: Deal;
  botId: number;
  botName: string;
  accountId: number;
  userId: number;
}

export interface DealFilter {
  userId: number;
  /** Only deals on these accounts (the request's mode), when given. */
  accountIds?: readonly number[];
  botId?: number;
  accountId?: number;
  from?: Date;
  to?: Date;
  scope?: string;
  order: 'created_at' | 'updated_at' | 'closed_at' | 'profit' | 'profit_percentage';
  direction: 'asc' | 'desc';
  base?: string;
  quote?: string;
  note?: string;
  limit: number;
  offset: number;
}

/** Closed deals that count (completed, closed at market, stopped out), by close time. */
export interface ProfitFilter {
  userId: number;
  /** Only deals on these accounts (the request's mode), when given. */
  accountIds?: readonly number[];
  accountId?: number;
  botId?: number;
  closedFrom?: Date;
  /** Inclusive: the last millisecond of the last day, so the bound stays inside year 9999. */
  closedUntil?: Date;
}

export interface ProfitSum {
  currency: string;
  profit: string;
  usd: string;
  btc: string;
  count: number;
}

/**
 * The storage the DCA services use. A stored deal's columns (status, times, note, profits) are its
 * latest; the deal itself may be as it was at its last change of status while it is active (the
 * SQL store rewrites it then and when it ends): its bot's state has the active deal as it is.
 */
export interface DcaStore {
  listDeals(filter: DealFilter): Promise<StoredDeal[]>;
  findDeal(id: number): Promise<StoredDeal | undefined>;
  dealEvents(dealId: number): Promise<Array<{ message: string; createdAt: Date }>>;
  profitSums(filter: ProfitFilter): Promise<ProfitSum[]>;
  statusCounts(botId: number): Promise<Record<string, number>>;
  profitByDay(filter: ProfitFilter): Promise<Array<{ day: string; usd: string; btc: string }>>;
  blacklist(userId: number): Promise<string[]>;
  setBlacklist(userId: number, pairs: string[]): Promise<void>;
}

export type DcaEngine = Pick<Engine, 'create' | 'act' | 'get' | 'list' | 'remove' | 'orders' | 'events'>;

export interface Quote {
  last: Decimal;
  bid: Decimal;
  ask: Decimal;
}

/** Current prices and dollar rates for an account's market; undefined where unknown. */
export interface DcaPrices {
  quote(accountId: number, pair: string): Promise<Quote | undefined>;
  usdRate(accountId: number, currency: string): Promise<Decimal | undefined>;
}

/** Prices from the account's exchange (the paper venue, or the real exchange's tickers). */
export function exchangePrices(accounts: AccountsService, markets: MarketsService): DcaPrices {
  return {
    quote: async (accountId, pair) => {
      try {
        return await (await accounts.exchangeForId(accountId)).ticker(pair);
      } catch {
        return undefined;
      }
    },
    usdRate: async (accountId, currency) => {
      try {
        const exchange = await accounts.exchangeForId(accountId);
        return usdPrice(currency, (await markets.valuationPrices(exchange.marketCode, [currency])).lookup);
      } catch {
        return undefined;
      }
    },
  };
}

export interface DealView extends StoredDeal {
  /** The journal rows of the deal's orders. */
  orders: EngineOrder[];
  quote: Quote | undefined;
  /** USD value of one unit of the deal's profit currency, now. */
  usdRate: Decimal | undefined;
}

export class DealsService {
  constructor(
    private readonly store: DcaStore,
    private readonly engine: DcaEngine,
    private readonly prices: DcaPrices,
    private readonly accounts: AccountsService,
  ) {}

  async list(mode: UserMode, filter: Omit<DealFilter, 'accountIds'>): Promise<DealView[]> {
    const accountIds = [...(await this.accounts.idsOf(filter.userId, mode))];
    const stored = await this.store.listDeals({ ...filter, accountIds });
    return Promise.all(stored.map((deal) => this.view(deal, false)));
  }

  async get(userId: number, dealId: number): Promise<DealView> {
    return this.view(await this.owned(userId, dealId), true);
  }

  events(dealId: number) {
    return this.store.dealEvents(dealId);
  }

  /** Applies an action to an active deal and returns the deal as it then is. */
  /** With `signalId`, the action a TradingView signal asks for: applied once however often it asks. */
  async act(userId: number, dealId: number, action: DealAction, signalId?: string): Promise<DealView> {
    const stored = await this.owned(userId, dealId);
    try {
      if (stored.deal.closedAt !== null) throw new TransitionError(stored.deal.status, action.type);
      const act = { type: 'deal', dealId, action } as const;
      await this.engine.act(dcaBotKind, stored.botId, signalId === undefined ? act : { type: 'signal', id: signalId, action: act });
    } catch (error) {
      throw dealActionError(error, action);
    }
    return this.get(userId, dealId);
  }

  /** The bot's active deals as views (for the bot entity's active_deals). */
  activeViews(bot: { id: number; userId: number; accountId: number; state: { config: { name: string }; deals: Deal[] } }): Promise<DealView[]> {
    return Promise.all(
      bot.state.deals.map((deal) =>
        this.view({ deal, botId: bot.id, botName: bot.state.config.name, accountId: bot.accountId, userId: bot.userId }, false),
      ),
    );
  }

  /** The journal row behind an order id the API showed for this deal. */
  async order(view: StoredDeal, orderId: number): Promise<EngineOrder | undefined> {
    return (await this.ordersOf(view)).find((order) => order.id === orderId);
  }

  async ordersOf(stored: StoredDeal): Promise<EngineOrder[]> {
    const prefix = new RegExp(`^d${stored.deal.no}[a-z]`);
    return (await this.engine.orders(stored.botId)).filter((order) => prefix.test(order.key));
  }

  private async owned(userId: number, dealId: number): Promise<StoredDeal> {
    const stored = await this.store.findDeal(dealId);
    if (!stored || stored.userId !== userId) throw errors.notFound();
    return stored;
  }

  private async view(stored: StoredDeal, withOrders: boolean): Promise<DealView> {
    let current = stored;
    if (stored.deal.closedAt === null) {
      const bot = await this.engine.get(dcaBotKind, stored.botId);
      const live = bot?.state.deals.find((deal) => deal.id === stored.deal.id);
      if (live) current = { ...stored, deal: live };
    }
    const { deal } = current;
    const currency = deal.settings.profitCurrency === 'base_currency' ? deal.base : deal.quote;
    const [orders, quote, usdRate] = await Promise.all([
      withOrders || deal.tpSteps.length > 1 ? this.ordersOf(current) : Promise.resolve([]),
      deal.closedAt === null ? this.prices.quote(current.accountId, deal.pair) : Promise.resolve(undefined),
      deal.closedAt === null ? this.prices.usdRate(current.accountId, currency) : Promise.resolve(undefined),
    ]);
    return { ...current, orders, quote, usdRate };
  }
}

function dealActionError(error: unknown, action: DealAction): unknown {
  if (error instanceof DealActionError) {
    return error.reason === 'cant_be_cancelled' ? errors.cantBeCancelled() : errors.unprocessable(error.message);
  }
  if (!(error instanceof TransitionError)) return error;
  if (action.type === 'update_deal' || action.type === 'update_max_safety_orders') return errors.dealNotEditable();
  if (action.type === 'cancel_order') return errors.cantBeCancelled();
  return new ApiError(403, 'Forbidden', `The deal cannot do this now (${error.message})`);
}
