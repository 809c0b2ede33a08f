/**
 * DCA bots (api-reference §13): one engine automation per bot. Settings are checked for their
 * own consistency (domain/dca-bot/bot-params.ts) and against the account's market: every pair
 * must be listed there and order volumes must reach its minimum total. Bots start disabled;
 * enabling one lets its start conditions open deals.
 */
import { randomBytes } from 'node:crypto';
import { TransitionError } from '../domain/automation.ts';
import { type BotParams, botConfigFrom, paramsOf } from '../domain/dca-bot/bot-params.ts';
import { type DcaBotAction, type DcaBotState, newBotState } from '../domain/dca-bot/dca-bot-state.ts';
import type { BotConfig } from '../domain/dca-bot/dca-settings.ts';
import type { Deal } from '../domain/dca-bot/deal.ts';
import { DealStartError } from '../domain/dca-bot/deal-starts.ts';
import { safetyOrderSize } from '../domain/dca-bot/safety-orders.ts';
import type { Automation } from '../engine/automation-kind.ts';
import { dcaBotKind } from '../engine/kinds/dca-bot.kind.ts';
import { dec, ZERO } from '../shared/decimal.ts';
import { errors, FieldErrorCollector } from '../shared/errors.ts';
import type { AccountsService } from './accounts.service.ts';
import type { DcaEngine, DcaStore } from './deals.service.ts';
import type { MarketsService } from './markets.service.ts';
import type { Account, UserMode } from './repositories.ts';

export type Bot = Automation<DcaBotState>;

export interface BotListQuery {
  accountId?: number;
  strategy?: 'long' | 'short';
  scope?: string;
  sortBy: 'created_at' | 'updated_at' | 'profit';
  direction: 'asc' | 'desc';
  limit: number;
  offset: number;
  from?: Date;
  quote?: string;
}

export interface StartDealInput {
  pair?: string;
  skipSignalChecks: boolean;
  skipOpenDealsChecks: boolean;
  onlyForEnabled: boolean;
  /** The TradingView signal asking: the deal is started once however often it asks. */
  signalId?: string;
}

export class DcaBotsService {
  constructor(
    private readonly engine: DcaEngine,
    private readonly store: DcaStore,
    private readonly accounts: AccountsService,
    private readonly markets: MarketsService,
  ) {}

  async create(userId: number, accountId: number, params: BotParams): Promise<Bot> {
    const account = await this.accounts.get(userId, accountId);
    const config = await this.validConfig(account, params);
    const state = newBotState({
      userId,
      accountId,
      urlSecret: randomBytes(12).toString('hex'),
      config,
      blacklist: await this.store.blacklist(userId),
    });
    return this.engine.create(dcaBotKind, { userId, accountId, state });
  }

  async list(userId: number, mode: UserMode, query: BotListQuery): Promise<Bot[]> {
    const [bots, accounts] = await Promise.all([
      this.engine.list(dcaBotKind, { userId, ...(query.accountId === undefined ? {} : { accountId: query.accountId }) }),
      this.accounts.idsOf(userId, mode),
    ]);
    const selected = bots.filter(
      (bot) =>
        accounts.has(bot.accountId) &&
        (query.strategy === undefined || bot.state.config.deal.strategy === query.strategy) &&
        (query.scope === undefined || bot.state.enabled === (query.scope === 'enabled' || query.scope === 'enable')) &&
        (query.from === undefined || bot.createdAt >= query.from) &&
        (query.quote === undefined || bot.state.config.pairs.some((pair) => pair.startsWith(`${query.quote}_`))),
    );
    const key = (bot: Bot) =>
      query.sortBy === 'profit' ? Number(bot.state.finishedDealsProfitUsd) : (query.sortBy === 'updated_at' ? bot.updatedAt : bot.createdAt).getTime();
    const sign = query.direction === 'asc' ? 1 : -1;
    selected.sort((a, b) => (key(a) - key(b)) * sign || (a.id - b.id) * sign);
    return selected.slice(query.offset, query.offset + query.limit);
  }

  async get(userId: number, botId: number): Promise<Bot> {
    const bot = await this.engine.get(dcaBotKind, botId);
    if (!bot || bot.userId !== userId) throw errors.dcaBotNotFound();
    return bot;
  }

  events(botId: number) {
    return this.engine.events(botId, { limit: 1000, offset: 0 });
  }

  accountOf(userId: number, bot: Bot): Promise<Account> {
    return this.accounts.get(userId, bot.accountId);
  }

  /** Applies the fields sent over the bot's current settings; running deals keep theirs. */
  async update(userId: number, botId: number, changes: BotParams): Promise<Bot> {
    const bot = await this.get(userId, botId);
    const defined = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
    const config = await this.validConfig(await this.accountOf(userId, bot), { ...paramsOf(bot.state.config), ...defined });
    return this.act(bot, { type: 'update', config });
  }

  async setEnabled(userId: number, botId: number, enabled: boolean): Promise<Bot> {
    return this.act(await this.get(userId, botId), { type: enabled ? 'enable' : 'disable' });
  }

  async startNewDeal(userId: number, botId: number, input: StartDealInput): Promise<Deal> {
    const bot = await this.get(userId, botId);
    const pairs = bot.state.config.pairs;
    const pair = input.pair ?? (pairs.length === 1 ? pairs[0]! : undefined);
    if (pair === undefined) throw errors.recordInvalid({ pair: ['is missing'] });
    if (!pairs.includes(pair)) throw errors.recordInvalid({ pair: ['is not one of the bot pairs'] });
    const before = new Set(bot.state.deals.map((deal) => deal.id));
    let after: Bot;
    try {
      const start = {
        type: 'start_deal',
        pair,
        skipSignalChecks: input.skipSignalChecks,
        skipOpenDealsChecks: input.skipOpenDealsChecks,
        onlyForEnabled: input.onlyForEnabled,
      } as const;
      after = await this.engine.act(dcaBotKind, bot.id, input.signalId === undefined ? start : { type: 'signal', id: input.signalId, action: start });
    } catch (error) {
      if (error instanceof DealStartError) throw errors.unprocessable(error.message);
      if (error instanceof TransitionError) throw errors.unprocessable('The bot is disabled');
      throw error;
    }
    const started = after.state.deals.find((deal) => !before.has(deal.id));
    if (started) return started;
    // The base order filled and the deal already ended within the same call.
    const newest = await this.store.listDeals({ userId, botId, order: 'created_at', direction: 'desc', limit: 1, offset: 0 });
    if (!newest[0]) throw errors.unprocessable('The deal could not start');
    return newest[0].deal;
  }

  async remove(userId: number, botId: number): Promise<void> {
    const bot = await this.engine.get(dcaBotKind, botId);
    if (!bot || bot.userId !== userId) throw errors.notFound();
    if (bot.state.deals.length > 0) throw errors.forbidden('The bot has active deals; close or cancel them first');
    await this.engine.remove(dcaBotKind, botId);
  }

  async closeAll(userId: number, botId: number, how: 'panic_sell_all' | 'cancel_all'): Promise<Bot> {
    return this.act(await this.get(userId, botId), { type: how });
  }

  /**
   * Closes the bot's deals at market (a pair's only, when given) as a signal asks, once however
   * often it asks; deals already closing are left to finish. The bot's mark of the signal names
   * the deals it closed.
   */
  closeForSignal(bot: Bot, signalId: string, pair: string | undefined): Promise<Bot> {
    return this.act(bot, { type: 'signal', id: signalId, action: { type: 'panic_sell_all', ...(pair === undefined ? {} : { pair }) } });
  }

  /**
   * Copies a bot, found by id and its url_secret, to the caller: onto the same account when the
   * caller owns it, else onto the caller's first paper account. With `amount`, order volumes are
   * scaled so that a full set of deals needs that much.
   */
  async copy(userId: number, botId: number, input: { name: string; secret: string; amount?: string }) {
    const source = await this.engine.get(dcaBotKind, botId);
    if (!source || (source.userId !== userId && source.state.urlSecret !== input.secret)) throw errors.dcaBotNotFound();
    if (source.state.urlSecret !== input.secret) throw errors.recordInvalid({ secret: ['is invalid'] });
    const accountId = source.userId === userId ? source.accountId : (await this.accounts.list(userId, 'paper'))[0]?.id;
    if (accountId === undefined) throw errors.recordInvalid({ account_id: ['is missing'] });
    let params: BotParams = { ...paramsOf(source.state.config), name: input.name };
    const required = requiredAmount(source.state.config);
    if (input.amount !== undefined && required.gt(0)) {
      const scale = dec(input.amount).div(required);
      params = {
        ...params,
        base_order_volume: dec(params.base_order_volume!).times(scale).toDecimalPlaces(8).toFixed(),
        safety_order_volume: dec(params.safety_order_volume!).times(scale).toDecimalPlaces(8).toFixed(),
      };
    }
    const bot = await this.create(userId, accountId, params);
    return { bot_id: bot.id, bot_required_amount: requiredAmount(bot.state.config).toDecimalPlaces(8).toFixed() };
  }

  blacklist(userId: number): Promise<string[]> {
    return this.store.blacklist(userId);
  }

  async updateBlacklist(userId: number, pairs: string[]): Promise<string[]> {
    const unique = [...new Set(pairs)];
    await this.store.setBlacklist(userId, unique);
    for (const bot of await this.engine.list(dcaBotKind, { userId })) {
      await this.engine.act(dcaBotKind, bot.id, { type: 'set_blacklist', pairs: unique });
    }
    return unique;
  }

  private act(bot: Bot, action: DcaBotAction): Promise<Bot> {
    return this.engine.act(dcaBotKind, bot.id, action);
  }

  private async validConfig(account: Account, params: BotParams): Promise<BotConfig> {
    const invalid = new FieldErrorCollector();
    const config = botConfigFrom(params, invalid);
    invalid.throwIfAny();
    const markets = new Map((await this.markets.markets(account.marketCode)).map((market) => [market.pair, market]));
    for (const pair of config!.pairs) {
      const market = markets.get(pair);
      if (!market) {
        invalid.add('pairs', `${pair} is not traded on this account's exchange`);
        continue;
      }
      const { deal } = config!;
      const minTotal = market.rules.minTotal;
      if (deal.baseOrderVolumeType === 'quote_currency' && dec(deal.baseOrderVolume).lt(minTotal)) {
        invalid.add('base_order_volume', `must be at least the exchange minimum of ${minTotal.toFixed()} ${market.quote}`);
      }
      const safety = safetyOrderSize(deal, dec(deal.safetyOrderVolume));
      if (deal.maxSafetyOrders > 0 && safety.type === 'quote_currency' && safety.volume.lt(minTotal)) {
        invalid.add('safety_order_volume', `must be at least the exchange minimum of ${minTotal.toFixed()} ${market.quote}`);
      }
    }
    invalid.throwIfAny();
    return config!;
  }
}

/** Quote a full set of deals needs: base order and every safety order, times max_active_deals. */
export function requiredAmount(config: BotConfig): ReturnType<typeof dec> {
  const { deal } = config;
  if (deal.baseOrderVolumeType !== 'quote_currency') return ZERO;
  let total = dec(deal.baseOrderVolume);
  const sizes =
    deal.customSafetySteps.length > 0
      ? deal.customSafetySteps.slice(0, deal.maxSafetyOrders).map((step) => dec(step.size))
      : Array.from({ length: deal.maxSafetyOrders }, (_, n) => dec(deal.safetyOrderVolume).times(dec(deal.martingaleVolumeCoefficient).pow(n)));
  for (const size of sizes) total = total.plus(safetyOrderSize(deal, size).volume);
  return total.times(config.maxActiveDeals);
}
