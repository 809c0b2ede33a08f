/**
 * SmartTrades v2: creating them on a user's account (settings checked against the market's rules
 * and the current price), the actions the reference offers, and the views the API shows. The
 * trade itself runs in the engine; every action goes through its step, which refuses what its
 * status does not allow.
 */
import { TransitionError } from '../domain/automation.ts';
import { addFundsAllowed, maxReduce } from '../domain/smart-trade/funds.ts';
import { smartTradeAllows } from '../domain/smart-trade/smart-trade.transitions.ts';
import { figures } from '../domain/smart-trade/ledger.ts';
import { readConditional, readStopLoss, readTakeProfit, type PositionInput, type StopLossInput, type TakeProfitInput } from '../domain/smart-trade/settings-input.ts';
import { newSmartTrade } from '../domain/smart-trade/smart-trade.ts';
import type { EditInput, FundsInput, SmartTradeAction, SmartTradeConfig, SmartTradeState } from '../domain/smart-trade/smart-trade.types.ts';
import { findSubTrade, type SubTrade, subTrades } from '../domain/smart-trade/sub-trades.ts';
import { expectedEntry, validateEntry, validateSmartTrade, validateStopLoss, validateTakeProfit } from '../domain/smart-trade/validation.ts';
import type { Engine } from '../engine/engine.ts';
import type { Automation } from '../engine/automation-kind.ts';
import { smartTradeKind } from '../engine/kinds/smart-trade.kind.ts';
import { dec } from '../shared/decimal.ts';
import { type ApiError, errors, FieldErrorCollector } from '../shared/errors.ts';
import type { AccountsService } from './accounts.service.ts';
import type { MarketsService } from './markets.service.ts';
import type { UserMode } from './repositories.ts';
import { matches, page, type SmartTradeListQuery } from './smart-trade-list.ts';
import { fundsInput, type FundsWire, MarketViews, type TradeMarket, type MarketView } from './trade-markets.ts';

export interface CreateSmartTradeInput {
  account_id: number;
  pair: string;
  instant?: boolean;
  skip_enter_step?: boolean;
  note?: string;
  leverage?: { enabled?: boolean };
  position: PositionInput & { type: 'buy' | 'sell'; order_type: 'market' | 'limit' | 'conditional'; units: { value: string } };
  take_profit?: TakeProfitInput;
  stop_loss?: StopLossInput;
}

export interface EditSmartTradeInput {
  position?: Omit<PositionInput, 'type' | 'order_type'>;
  take_profit?: TakeProfitInput;
  stop_loss?: StopLossInput;
}

export interface SmartTradeView extends MarketView {
  id: number;
  createdAt: Date;
  updatedAt: Date;
  state: SmartTradeState;
}

export class SmartTradesService {
  private readonly views: MarketViews;

  constructor(
    private readonly engine: Engine,
    private readonly accounts: AccountsService,
    markets: MarketsService,
  ) {
    this.views = new MarketViews(accounts, markets);
  }

  async create(userId: number, input: CreateSmartTradeInput): Promise<SmartTradeView> {
    const { account, market, quote } = await this.views.tradeMarket(userId, input.account_id, input.pair);
    const invalid = new FieldErrorCollector();
    if (input.leverage?.enabled) invalid.add('leverage[enabled]', 'is not available on spot markets');
    const side = input.position.type;
    const orderType = input.position.order_type;
    const conditional = orderType === 'conditional' && !input.skip_enter_step ? readConditional(input.position.conditional, side, invalid) : undefined;
    const takeProfit = readTakeProfit(input.take_profit, invalid);
    const stopLoss = readStopLoss(input.stop_loss, invalid);
    const price = input.position.price?.value;
    const config: SmartTradeConfig = {
      pair: market.pair,
      base: market.base,
      quote: market.quote,
      side,
      instant: input.instant === true,
      skipEnterStep: input.skip_enter_step === true,
      entry: {
        orderType,
        units: dec(input.position.units.value),
        ...(price === undefined ? {} : { price: dec(price) }),
        ...(conditional ? { conditional } : {}),
      },
      takeProfit: { enabled: takeProfit.enabled, steps: takeProfit.steps.map(({ id: _id, ...step }) => step) },
      ...(stopLoss ? { stopLoss } : {}),
    };
    if (config.skipEnterStep && price === undefined && quote === undefined) invalid.add('position[price][value]', 'is missing');
    invalid.throwIfAny();
    validateSmartTrade(config, market.rules, quote);
    const state = newSmartTrade(config, marketSteps(market), input.note ?? '');
    const created = await this.engine.create(smartTradeKind, { userId, accountId: account.id, state }, { type: 'start' });
    // The reference answers a create with the trade as it accepted it: `created`, its position
    // `to_process`. What the start did (orders placed, a market entry filled) shows from then on.
    return this.view({ ...created, state });
  }

  async list(userId: number, mode: UserMode, query: SmartTradeListQuery): Promise<SmartTradeView[]> {
    const accounts = await this.accounts.idsOf(userId, mode);
    const automations = (await this.engine.list(smartTradeKind, { userId })).filter(
      (automation) => accounts.has(automation.accountId) && matches(automation, query),
    );
    const views = await this.views.many(automations, (automation, market) => ({ ...viewOf(automation), ...market }));
    return page(views, query);
  }

  async show(userId: number, id: number): Promise<SmartTradeView> {
    return this.view(await this.owned(userId, id));
  }

  async edit(userId: number, id: number, input: EditSmartTradeInput): Promise<SmartTradeView> {
    const automation = await this.owned(userId, id);
    const { state } = automation;
    // The status is checked before the fields, so a trade that cannot be edited says so first.
    if (!smartTradeAllows(state.status, 'edit')) throw errors.smartTradeWrongStatus('Edit');
    const { market, quote } = await this.views.tradeMarket(userId, automation.accountId, state.config.pair);
    const invalid = new FieldErrorCollector();
    const edit: EditInput = {};
    if (input.position) {
      const { units, price, conditional } = input.position;
      edit.position = {
        ...(units?.value === undefined ? {} : { units: dec(units.value) }),
        ...(price?.value === undefined ? {} : { price: dec(price.value) }),
      };
      if (conditional !== undefined) {
        const read = readConditional(conditional, state.config.side, invalid);
        if (read) edit.position.conditional = read;
      }
    }
    if (input.take_profit) edit.takeProfit = readTakeProfit(input.take_profit, invalid);
    if (input.stop_loss) edit.stopLoss = readStopLoss(input.stop_loss, invalid) ?? null;
    // Reported together, as the reference does: field errors and the rules between fields.
    validateEdit(state, edit, market, quote, invalid);
    invalid.throwIfAny();
    return this.act(userId, id, { type: 'edit', edit }, () => errors.smartTradeWrongStatus('Edit'));
  }

  setNote(userId: number, id: number, note: string): Promise<SmartTradeView> {
    return this.act(userId, id, { type: 'set_note', note }, () => errors.smartTradeWrongStatus('Set note'));
  }

  cancel(userId: number, id: number): Promise<SmartTradeView> {
    return this.act(userId, id, { type: 'cancel' }, () => errors.smartTradeWrongStatus('Cancel'), 400);
  }

  closeByMarket(userId: number, id: number): Promise<SmartTradeView> {
    return this.act(userId, id, { type: 'close_by_market' }, () => errors.smartTradeWrongStatus('Close by market'));
  }

  async addFunds(userId: number, id: number, input: FundsWire): Promise<SmartTradeView> {
    if (!addFundsAllowed((await this.owned(userId, id)).state)) throw errors.smartTradeWrongStatus('Add funds');
    const funds = await this.fundsFor(userId, id, input, 'entry');
    return this.act(userId, id, { type: 'add_funds', funds }, () => errors.smartTradeWrongStatus('Add funds'));
  }

  async reduceFundsInfo(userId: number, id: number): Promise<string> {
    const { state } = await this.owned(userId, id);
    if (state.status !== 'waiting_targets') throw errors.smartTradeWrongStatus('Reduce funds');
    return maxReduce(state).toFixed();
  }

  async reduceFunds(userId: number, id: number, input: FundsWire): Promise<SmartTradeView> {
    const { state } = await this.owned(userId, id);
    if (state.status !== 'waiting_targets') throw errors.smartTradeWrongStatus('Reduce funds');
    const funds = await this.fundsFor(userId, id, input, 'close');
    return this.act(userId, id, { type: 'reduce_funds', funds }, () => errors.smartTradeWrongStatus('Reduce funds'));
  }

  forceStart(userId: number, id: number): Promise<SmartTradeView> {
    return this.act(userId, id, { type: 'force_start' }, () => errors.smartTradeWrongStatus('Force start'));
  }

  forceProcess(userId: number, id: number): Promise<SmartTradeView> {
    return this.act(userId, id, { type: 'force_process' }, () => errors.smartTradeWrongStatus('Force process'));
  }

  async subTrades(userId: number, id: number): Promise<{ view: SmartTradeView; parts: SubTrade[] }> {
    const view = await this.show(userId, id);
    return { view, parts: subTrades(view.state) };
  }

  async closeSubTrade(userId: number, id: number, tradeId: number): Promise<SmartTradeView> {
    await this.subTradeOf(userId, id, tradeId);
    return this.act(userId, id, { type: 'close_sub_trade', subTradeId: tradeId }, () => errors.tradeCannotBeClosed());
  }

  async cancelSubTrade(userId: number, id: number, tradeId: number): Promise<SmartTradeView> {
    await this.subTradeOf(userId, id, tradeId);
    return this.act(userId, id, { type: 'cancel_sub_trade', subTradeId: tradeId }, () => errors.tradeCannotBeCancelled());
  }

  private async subTradeOf(userId: number, id: number, tradeId: number): Promise<void> {
    const { state } = await this.owned(userId, id);
    if (!findSubTrade(state, tradeId)) throw errors.subTradeNotFound();
  }

  private async fundsFor(userId: number, id: number, input: FundsWire, part: 'entry' | 'close'): Promise<FundsInput> {
    const automation = await this.owned(userId, id);
    const { config } = automation.state;
    const { market, quote } = await this.views.tradeMarket(userId, automation.accountId, config.pair);
    const buys = (config.side === 'buy') === (part === 'entry');
    return fundsInput(input, market.rules, quote, buys ? 'buy' : 'sell');
  }

  private async owned(userId: number, id: number, notFoundStatus = 404): Promise<Automation<SmartTradeState>> {
    const automation = await this.engine.get(smartTradeKind, id);
    if (!automation || automation.userId !== userId) throw errors.smartTradeNotFound(notFoundStatus);
    return automation;
  }

  private async act(userId: number, id: number, action: SmartTradeAction, refused: () => ApiError, notFoundStatus = 404): Promise<SmartTradeView> {
    await this.owned(userId, id, notFoundStatus);
    try {
      return await this.view(await this.engine.act(smartTradeKind, id, action));
    } catch (error) {
      if (error instanceof TransitionError) throw refused();
      throw error;
    }
  }

  private async view(automation: Automation<SmartTradeState>): Promise<SmartTradeView> {
    const [view] = await this.views.many([automation], (item, market) => ({ ...viewOf(item), ...market }));
    return view!;
  }
}

function validateEdit(state: SmartTradeState, edit: EditInput, market: TradeMarket['market'], quote: TradeMarket['quote'], invalid: FieldErrorCollector): void {
  const { config } = state;
  const entry = { ...config.entry, ...edit.position };
  const edited = { ...config, entry };
  if (edit.position) validateEntry(edited, market.rules, quote, invalid);
  const f = figures(state);
  const entered = f.enteredGross.isZero() ? expectedEntry(edited, quote) : f.enteredQuote.div(f.enteredGross);
  const long = config.side === 'buy';
  const takeProfit = edit.takeProfit ?? { enabled: config.takeProfit.enabled, steps: state.steps };
  if (edit.takeProfit) validateTakeProfit(edit.takeProfit, long, entered, market.rules, invalid);
  if (edit.stopLoss) validateStopLoss(edit.stopLoss, long, entered, takeProfit, market.rules, invalid);
}


const viewOf = (automation: Automation<SmartTradeState>) => ({
  id: automation.id,
  createdAt: automation.createdAt,
  updatedAt: automation.updatedAt,
  state: automation.state,
});

function marketSteps(market: TradeMarket['market']) {
  const { priceStep, lotStep, minLotSize, minTotal } = market.rules;
  return { priceStep, lotStep, minLotSize, minTotal };
}
