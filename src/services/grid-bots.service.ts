/**
 * Grid bots of a user: settings checked against the market's rules, funds checked before the grid
 * goes out, then handed to the engine, which runs them. A bot is reachable only through an account
 * of the caller (404 for unknown ids, 403 for another user's account). Profits are read from the
 * rows the engine wrote while it booked them.
 */
import { TransitionError } from '../domain/automation.ts';
import { parsePair } from '../domain/market/pair.ts';
import type { TradingRules } from '../domain/market/trading-rules.ts';
import { buildGridConfig } from '../domain/grid-bot/config-validation.ts';
import type { GridBotAction } from '../domain/grid-bot/grid-bot.ts';
import type { GridBotConfig } from '../domain/grid-bot/grid-bot-config.ts';
import type { GridBotParams } from '../domain/grid-bot/grid-bot-params.ts';
import { type GridBotState, isEnabled, newGridBot } from '../domain/grid-bot/grid-bot-state.ts';
import { layOut } from '../domain/grid-bot/grid-plan.ts';
import { type Amounts, isMarked, type RequiredBalances, requiredBalances } from '../domain/grid-bot/required-balances.ts';
import type { Automation, AutomationKind, EngineOrder, StoredEvent } from '../engine/automation-kind.ts';
import { gridBotKind } from '../engine/kinds/grid-bot.kind.ts';
import type { Ticker } from '../exchanges/exchange.ts';
import { type Decimal, ZERO } from '../shared/decimal.ts';
import { ApiError, errors } from '../shared/errors.ts';
import type { AccountsService } from './accounts.service.ts';
import { type GridBotFilter, selectGridBots } from './grid-bots-list.ts';
import { type MarketsService, PAPER_MARKET_CODE } from './markets.service.ts';
import type { GridProfitRecord } from '../domain/grid-bot/grid-output.ts';
import type { Account } from './repositories.ts';

export { GRID_SORT_FIELDS, type GridBotFilter, type GridSortField } from './grid-bots-list.ts';

/** A profit row as stored: the pair's line as it was when the profit was booked. */
export interface GridProfitRow {
  lineId: number;
  linePrice: string;
  side: 'buy' | 'sell' | null;
  orderPlaced: boolean;
  profit: string;
  usdProfit: string | null;
  createdAt: Date;
}

/** A profit record the grid kind books, as the stores keep it. */
export function gridProfitRowOf(record: GridProfitRecord): GridProfitRow {
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

export interface GridProfitsStore {
  /** Newest first; `from` and `to` bound the booking time, both inclusive. */
  profits(botId: number, range: { from?: Date; to?: Date }): Promise<GridProfitRow[]>;
}

/** What the service needs of the engine. */
export interface GridEngine {
  create<S, A>(kind: AutomationKind<S, A, unknown>, init: { userId: number; accountId: number; state: S }, action?: A): Promise<Automation<S>>;
  act<S, A>(kind: AutomationKind<S, A, unknown>, id: number, action: A): Promise<Automation<S>>;
  get<S>(kind: AutomationKind<S, unknown, unknown>, id: number): Promise<Automation<S> | undefined>;
  list<S>(kind: AutomationKind<S, unknown, unknown>, filter: { userId?: number; accountId?: number }): Promise<Automation<S>[]>;
  remove(kind: AutomationKind<unknown, unknown, unknown>, id: number): Promise<void>;
  orders(automationId: number): Promise<EngineOrder[]>;
  events(automationId: number, page: { limit: number; offset: number }): Promise<StoredEvent[]>;
}

/** A bot with what its entity shows besides its own state. */
export interface GridBotView {
  bot: Automation<GridBotState>;
  account: Account;
  /** Undefined when the market has no price for the pair now. */
  currentPrice: Decimal | undefined;
}

export interface GridRequiredBalances extends RequiredBalances {
  base: string;
  quote: string;
}

export type CreateGridBotParams = GridBotParams & { account_id: number; pair: string };

type Kind = AutomationKind<GridBotState, GridBotAction, unknown>;
const kind = gridBotKind as unknown as Kind;

export class GridBotsService {
  constructor(
    private readonly engine: GridEngine,
    private readonly accounts: AccountsService,
    private readonly markets: MarketsService,
    private readonly profitsStore: GridProfitsStore,
    /** The fee an order on this account is expected to pay (balancing orders, a grid's step check). */
    private readonly feeRate: (account: Account) => Promise<Decimal>,
  ) {}

  async create(userId: number, params: CreateGridBotParams): Promise<GridBotView> {
    const account = await this.accounts.get(userId, params.account_id);
    const pair = parsePair(params.pair);
    if (!pair) throw errors.recordInvalid({ pair: ['does not have a valid value'] });
    const { rules } = await this.markets.market(account.marketCode, pair.code);
    const config = configOrThrow(buildGridConfig(params, pair, rules, await this.feeRate(account)));
    const state = newGridBot(config, rules.priceStep);
    const action = await this.funding(account, state, rules, 'start');
    const bot = await this.engine.create(kind, { userId, accountId: account.id, state }, action);
    return this.view(await this.latest(bot), account);
  }

  async list(userId: number, filter: GridBotFilter): Promise<GridBotView[]> {
    const bots = (await this.engine.list(kind, { userId })).filter((bot) => bot.state.status !== 'deleted');
    // A bot whose account was removed is not listed.
    const accounts = new Map<number, Account | undefined>();
    for (const accountId of new Set(bots.map((bot) => bot.accountId))) {
      accounts.set(accountId, await this.accounts.get(userId, accountId).catch(() => undefined));
    }
    const listed = bots.filter((bot) => {
      const account = accounts.get(bot.accountId);
      return account !== undefined && (filter.mode === undefined || (account.marketCode === PAPER_MARKET_CODE) === (filter.mode === 'paper'));
    });
    const prices = new Map<string, Promise<Decimal | undefined>>();
    return Promise.all(
      selectGridBots(listed, filter).map(async (bot) => {
        const account = accounts.get(bot.accountId)!;
        const key = `${account.marketCode}|${bot.state.config.pair}`;
        if (!prices.has(key)) prices.set(key, this.price(account, bot.state.config.pair));
        return { bot, account, currentPrice: await prices.get(key)! };
      }),
    );
  }

  async get(userId: number, id: number): Promise<GridBotView> {
    const { bot, account } = await this.load(userId, id);
    return this.view(bot, account);
  }

  async update(userId: number, id: number, params: GridBotParams): Promise<GridBotView> {
    const { bot, account } = await this.load(userId, id);
    const current = bot.state.config;
    const pair = params.pair ? parsePair(params.pair) : undefined;
    if (params.pair && pair?.code !== current.pair) throw errors.recordInvalid({ pair: ['cannot be changed'] });
    const { rules } = await this.markets.market(account.marketCode, current.pair);
    const config = configOrThrow(buildGridConfig(params, parsePair(current.pair)!, rules, await this.feeRate(account), current));
    const planned: GridBotState = { ...bot.state, config };
    const funding = isEnabled(bot.state) ? await this.funding(account, planned, rules, 'edit', bot.id) : this.noFunding();
    return this.act(account, bot.id, { ...funding, type: 'edit', config } as GridBotAction);
  }

  async enable(userId: number, id: number): Promise<GridBotView> {
    const { bot, account } = await this.load(userId, id);
    if (isEnabled(bot.state)) return this.view(bot, account);
    const { rules } = await this.markets.market(account.marketCode, bot.state.config.pair);
    return this.act(account, bot.id, await this.funding(account, bot.state, rules, 'enable'));
  }

  async disable(userId: number, id: number): Promise<GridBotView> {
    const { bot, account } = await this.load(userId, id);
    if (!isEnabled(bot.state)) return this.view(bot, account);
    return this.act(account, bot.id, { type: 'disable' });
  }

  async setNote(userId: number, id: number, note: string): Promise<GridBotView> {
    const { bot, account } = await this.load(userId, id);
    return this.act(account, bot.id, { type: 'note', note: note === '' ? null : note });
  }

  /** Stops the bot (its orders are cancelled) and forgets it with its history; answers it as it ended. */
  async remove(userId: number, id: number): Promise<GridBotView> {
    const { bot, account } = await this.load(userId, id);
    const deleted = await this.engine.act(kind, bot.id, { type: 'delete' });
    await this.engine.remove(kind, bot.id);
    return this.view(deleted, account);
  }

  async requiredBalances(userId: number, id: number): Promise<GridRequiredBalances> {
    const { bot, account } = await this.load(userId, id);
    const { config, lines } = bot.state;
    if (!isMarked(lines)) throw errors.gridLinesNotMarked();
    const { rules } = await this.markets.market(account.marketCode, config.pair);
    const ticker = await this.markets.ticker(account.marketCode, config.pair);
    const funds = await this.funds(account, config, bot.id);
    const result = requiredBalances(lines, funds, ticker.last, rules, await this.feeRate(account));
    return { ...result, base: config.base, quote: config.quote };
  }

  async events(userId: number, id: number, page: { page: number; perPage: number }): Promise<StoredEvent[]> {
    const { bot } = await this.load(userId, id);
    return this.engine.events(bot.id, { limit: page.perPage, offset: (page.page - 1) * page.perPage });
  }

  /** The bot's orders, newest first: grid line (and stop-loss) orders, and balancing orders. */
  async marketOrders(userId: number, id: number, page: { limit: number; offset: number }) {
    const { bot } = await this.load(userId, id);
    const orders = (await this.engine.orders(bot.id)).sort((a, b) => b.id - a.id);
    const slice = (list: EngineOrder[]) => list.slice(page.offset, page.offset + page.limit);
    return {
      gridLines: slice(orders.filter((order) => order.role !== 'balancing')),
      balancing: slice(orders.filter((order) => order.role === 'balancing')),
    };
  }

  async profits(userId: number, id: number, range: { from?: Date; to?: Date }): Promise<GridProfitRow[]> {
    const { bot } = await this.load(userId, id);
    return this.profitsStore.profits(bot.id, range);
  }

  private async load(userId: number, id: number): Promise<{ bot: Automation<GridBotState>; account: Account }> {
    const bot = await this.engine.get(kind, id);
    if (!bot || bot.state.status === 'deleted') throw errors.notFound();
    const account = await this.accounts.get(userId, bot.accountId);
    return { bot, account };
  }

  private async act(account: Account, id: number, action: GridBotAction): Promise<GridBotView> {
    try {
      return this.view(await this.latest(await this.engine.act(kind, id, action)), account);
    } catch (error) {
      if (error instanceof TransitionError) throw errors.forbidden(`${action.type} is not allowed while the bot is ${error.status}`);
      throw error;
    }
  }

  /** The bot after what its action caused at once (a market fill, the orders that follow it). */
  private async latest(bot: Automation<GridBotState>): Promise<Automation<GridBotState>> {
    return (await this.engine.get(kind, bot.id)) ?? bot;
  }

  private async view(bot: Automation<GridBotState>, account: Account): Promise<GridBotView> {
    return { bot, account, currentPrice: await this.price(account, bot.state.config.pair) };
  }

  private async price(account: Account, pair: string): Promise<Decimal | undefined> {
    return this.markets.ticker(account.marketCode, pair).then(
      (ticker: Ticker) => ticker.last,
      () => undefined,
    );
  }

  /**
   * The funds a (re)start may use, checked against what the grid needs at the current price.
   * Without ignore_warnings a grid that cannot be funded, even with a balancing order, is refused.
   */
  private async funding(account: Account, state: GridBotState, rules: TradingRules, type: 'start' | 'enable' | 'edit', botId?: number) {
    const ticker = await this.markets.ticker(account.marketCode, state.config.pair);
    const funds = await this.funds(account, state.config, botId);
    const feeRate = await this.feeRate(account);
    if (!state.config.ignoreWarnings) {
      const lines = layOut(state, rules, ticker.last);
      const needs = requiredBalances(lines, funds, ticker.last, rules, feeRate);
      if (!needs.balancingAvailable) throw insufficientFunds(state.config, needs, funds);
    }
    return { type, funds, feeRate } as Extract<GridBotAction, { type: 'start' | 'enable' }>;
  }

  private noFunding() {
    return { funds: { base: ZERO, quote: ZERO }, feeRate: ZERO };
  }

  /** Free funds of the account plus what the bot's own open orders hold. */
  private async funds(account: Account, config: GridBotConfig, botId?: number): Promise<Amounts> {
    const reading = await this.accounts.readBalances(account);
    if (!reading.ok) throw reading.error;
    const free = (currency: string) => reading.balances.find((balance) => balance.currency === currency)?.free ?? ZERO;
    let base = free(config.base);
    let quote = free(config.quote);
    if (botId !== undefined) {
      for (const order of await this.engine.orders(botId)) {
        if (order.status !== 'open' || order.price === null) continue;
        const remaining = ZERO.plus(order.amount).minus(order.filled);
        if (order.side === 'sell') base = base.plus(remaining);
        else quote = quote.plus(remaining.times(order.price));
      }
    }
    return { base, quote };
  }
}

function configOrThrow(result: ReturnType<typeof buildGridConfig>): GridBotConfig {
  if (!result.ok) throw errors.recordInvalid(result.errors);
  return result.config;
}

function insufficientFunds(config: GridBotConfig, needs: RequiredBalances, funds: Amounts): ApiError {
  const amount = (value: Decimal, currency: string) => `${value.toFixed()} ${currency}`;
  return errors.recordInvalid({
    quantity_per_grid: [
      `Insufficient funds: the grid needs ${amount(needs.required.quote, config.quote)} and ${amount(needs.required.base, config.base)}, ` +
        `the account has ${amount(funds.quote, config.quote)} and ${amount(funds.base, config.base)} available`,
    ],
  });
}
