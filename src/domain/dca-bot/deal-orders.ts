/**
 * The orders a deal places: its base order, the safety-order ladder (only
 * active_safety_orders_count of them working at once), its take-profit steps (re-placed at the new
 * average after every safety fill) and market closes. Keys are `d<deal no><tag><sequence>` (the
 * base order is `d<deal no>b`), so no key is ever used twice.
 */
import type { StepContext } from '../automation.ts';
import type { TradingRules } from '../market/trading-rules.ts';
import { ceilToStep, dec, type Decimal, floorToStep, ZERO } from '../../shared/decimal.ts';
import { averagePrice, type Deal, type DealOrder, type DealOrderRole, entryPosition, entrySide, exitSide, isLong, position, workingOrders } from './deal.ts';
import { amountFor, safetyOrderLimit, safetyOrderStep } from './safety-orders.ts';
import type { StepOutput } from './step-output.ts';
import { splitAmount, takeProfitPrice } from './take-profit.ts';

const TAGS: Record<DealOrderRole, string> = {
  base: 'b',
  safety: 's',
  manual_safety: 'm',
  take_profit: 't',
  take_profit_market: 'q',
  close: 'c',
};

interface OrderSpec {
  role: DealOrderRole;
  side: 'buy' | 'sell';
  orderType: 'market' | 'limit';
  amount: Decimal;
  price?: Decimal;
  index?: number;
}

export function addOrder(deal: Deal, out: StepOutput, spec: OrderSpec): DealOrder {
  let key = `d${deal.no}b`;
  if (spec.role !== 'base') {
    deal.seq += 1;
    key = `d${deal.no}${TAGS[spec.role]}${deal.seq}`;
  }
  const order: DealOrder = {
    key,
    role: spec.role,
    side: spec.side,
    orderType: spec.orderType,
    amount: spec.amount.toFixed(),
    price: spec.price?.toFixed() ?? null,
    filled: '0',
    filledTotal: '0',
    index: spec.index ?? 0,
    cancelling: false,
  };
  deal.orders.push(order);
  out.place({
    key,
    pair: deal.pair,
    side: spec.side,
    orderType: spec.orderType,
    amount: spec.amount,
    ...(spec.price === undefined ? {} : { price: spec.price }),
    role: spec.role,
  });
  return order;
}

export function cancelWorking(deal: Deal, out: StepOutput, roles: DealOrderRole[] = []): void {
  for (const order of workingOrders(deal, ...roles)) {
    order.cancelling = true;
    out.cancel(order.key);
  }
}

/** Whether the exchange would take an order of `amount` at about `price`. */
export function tradable(rules: TradingRules, amount: Decimal, price: Decimal, market = false): boolean {
  const minTotal = market ? rules.minMarketTotal : rules.minTotal;
  return amount.gte(rules.minLotSize) && amount.gt(0) && amount.times(price).gte(minTotal);
}

const size = (deal: Deal, amount: Decimal, price: Decimal) =>
  `Price: ${price.toFixed()} ${deal.quote} Size: ${amount.times(price).toFixed()} ${deal.quote} (${amount.toFixed()} ${deal.base})`;

/** Places the base order at the current price; false when the pair has no price yet. */
export function placeBaseOrder(deal: Deal, context: StepContext, out: StepOutput): boolean {
  const ticker = context.price(deal.pair);
  if (!ticker || ticker.last.lte(0)) return false;
  const rules = context.rules(deal.pair);
  const { settings } = deal;
  const market = settings.startOrderType === 'market';
  const reference = market ? (isLong(deal) ? ticker.ask : ticker.bid) : ticker.last;
  const price = market ? reference : floorToStep(reference, rules.priceStep);
  const amount = amountFor(dec(settings.baseOrderVolume), settings.baseOrderVolumeType, price, rules);
  addOrder(deal, out, { role: 'base', side: entrySide(deal), orderType: settings.startOrderType, amount, ...(market ? {} : { price }) });
  out.dealLog(deal, `Placing base order. ${size(deal, amount, price)}`);
  return true;
}

/** Keeps active_safety_orders_count ladder orders working while any are left. */
export function refillSafetyOrders(deal: Deal, context: StepContext, out: StepOutput): void {
  if ((deal.status !== 'bought' && deal.status !== 'ttp_activated') || deal.baseOrderPrice === null) return;
  if (deal.tpSteps.some((step) => step.status === 'filled' || step.status === 'closed_at_market')) return;
  const rules = context.rules(deal.pair);
  const limit = safetyOrderLimit(deal.settings);
  let working = workingOrders(deal, 'safety').length;
  while (working < deal.settings.activeSafetyOrdersCount && deal.safetyPlaced < limit) {
    const step = safetyOrderStep(deal.settings, dec(deal.baseOrderPrice), deal.safetyPlaced + 1, rules);
    if (!step) break;
    deal.safetyPlaced += 1;
    const counter = `(${step.index} out of ${limit})`;
    if (!tradable(rules, step.amount, step.price)) {
      out.dealLog(deal, `Safety trade ${counter} is below the exchange minimum and is skipped`);
      continue;
    }
    addOrder(deal, out, { role: 'safety', side: entrySide(deal), orderType: 'limit', amount: step.amount, price: step.price, index: step.index });
    out.dealLog(deal, `Placing safety trade ${counter}. ${size(deal, step.amount, step.price)}`);
    working += 1;
  }
}

/** Cancels ladder orders past the deal's limits (after its settings were lowered). */
export function trimSafetyOrders(deal: Deal, out: StepOutput): void {
  const limit = safetyOrderLimit(deal.settings);
  const working = workingOrders(deal, 'safety').sort((a, b) => a.index - b.index);
  working.forEach((order, position) => {
    if (order.index > limit || position >= deal.settings.activeSafetyOrdersCount) {
      order.cancelling = true;
      out.cancel(order.key);
    }
  });
  const highestKept = workingOrders(deal, 'safety').reduce((max, order) => Math.max(max, order.index), 0);
  deal.safetyPlaced = Math.max(Math.min(deal.safetyPlaced, limit), deal.safetyCompleted, highestKept);
}

/**
 * (Re)places the take-profit steps still open at the deal's current average. A trailing take
 * profit places no order: its price is where trailing starts.
 */
export function replaceTakeProfit(deal: Deal, context: StepContext, out: StepOutput): void {
  cancelWorking(deal, out, ['take_profit']);
  if (dec(deal.entryAmount).isZero()) return;
  const rules = context.rules(deal.pair);
  const entry = entryPosition(deal);
  const figures = { entryAmount: entry.held, entryVolume: entry.cost, baseOrderVolume: dec(deal.baseOrderVolume) };
  const open = deal.tpSteps.map((step, index) => ({ step, index })).filter(({ step }) => step.status === 'idle' || step.status === 'placed');
  const prices = open.map(({ step }) => takeProfitPrice(deal.settings, figures, dec(step.profitPercentage), rules.priceStep));
  deal.takeProfitPrice = prices[0]?.toFixed() ?? deal.takeProfitPrice;
  if (deal.settings.trailingEnabled) {
    for (const [n, { step }] of open.entries()) Object.assign(step, { status: 'idle', price: prices[n]!.toFixed() });
    return;
  }
  const amounts = stepAmounts(deal, open.map(({ step }) => dec(step.amountPercentage)), prices, rules);
  const current = context.price(deal.pair)?.last ?? averagePrice(deal);
  open.forEach(({ step, index }, n) => {
    const price = prices[n]!;
    const amount = amounts[n]!;
    step.price = price.toFixed();
    step.initialAmount = amount.toFixed();
    if (!tradable(rules, amount, price)) {
      step.status = 'idle';
      out.dealLog(deal, `TakeProfit step ${index + 1} (${amount.toFixed()} ${deal.base}) is below the exchange minimum and is not placed`);
      return;
    }
    addOrder(deal, out, { role: 'take_profit', side: exitSide(deal), orderType: 'limit', amount, price, index });
    step.status = 'placed';
    const move = current.isZero() ? ZERO : price.div(current).minus(1).times(100).abs().toDecimalPlaces(2);
    out.dealLog(deal, `Placing TakeProfit trade. ${size(deal, amount, price)}, the price should ${isLong(deal) ? 'rise' : 'fall'} for ${move.toFixed()}% to close the deal`);
  });
}

/**
 * How much each open step closes. Quote profit closes the whole position (a short buys back what
 * it owes plus the fee). Base profit only recovers the quote put in (long) or spends the quote
 * taken in (short), keeping the rest as base.
 */
function stepAmounts(deal: Deal, percentages: Decimal[], prices: Decimal[], rules: TradingRules): Decimal[] {
  const fee = dec(deal.settings.feeRate);
  const held = position(deal);
  const total = percentages.reduce((sum, p) => sum.plus(p), ZERO);
  const share = (value: Decimal, n: number) => (total.isZero() ? ZERO : value.times(percentages[n]!).div(total));
  if (deal.settings.profitCurrency === 'quote_currency') {
    const amount = isLong(deal) ? floorToStep(held, rules.lotStep) : ceilToStep(held.div(dec(1).minus(fee)), rules.lotStep);
    return splitAmount(amount, percentages, rules.lotStep);
  }
  const quote = dec(deal.quoteDelta);
  if (isLong(deal)) {
    let left = floorToStep(held, rules.lotStep);
    return prices.map((price, n) => {
      const wanted = ceilToStep(share(quote.neg(), n).div(price.times(dec(1).minus(fee))), rules.lotStep);
      const amount = n === prices.length - 1 || wanted.gt(left) ? left : wanted;
      left = left.minus(amount);
      return amount;
    });
  }
  return prices.map((price, n) => floorToStep(share(quote, n).div(price), rules.lotStep));
}

/** Closes the whole position at market; false when there is nothing the exchange would trade. */
export function placeMarketClose(deal: Deal, context: StepContext, out: StepOutput, why: string): boolean {
  cancelWorking(deal, out);
  const rules = context.rules(deal.pair);
  const held = position(deal);
  const amount = isLong(deal)
    ? floorToStep(held, rules.lotStep)
    : ceilToStep(held.div(dec(1).minus(dec(deal.settings.feeRate))), rules.lotStep);
  const ticker = context.price(deal.pair);
  const price = ticker ? (isLong(deal) ? ticker.bid : ticker.ask) : averagePrice(deal);
  if (!tradable(rules, amount, price, true)) return false;
  addOrder(deal, out, { role: 'close', side: exitSide(deal), orderType: 'market', amount });
  out.dealLog(deal, `${why}. Closing the deal at market: ${amount.toFixed()} ${deal.base}`);
  return true;
}
