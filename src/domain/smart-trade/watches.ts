/**
 * The prices a SmartTrade must hear about, as one band per trade: the engine wakes it only when
 * the price leaves the band, so with 10 000 trades a tick costs what its crossings cost. The band
 * is the nearest of every level the trade waits for: an entry trigger, a trailing extreme (only
 * strictly beyond it, one price step away, so a flat market wakes nobody), a reversal, a
 * take-profit target, the stop loss.
 */
import type { PriceWatch } from '../automation.ts';
import type { Decimal } from '../../shared/decimal.ts';
import { figures } from './ledger.ts';
import type { SmartTradeState } from './smart-trade.types.ts';
import { stopLossLevel } from './stop-loss.ts';
import { isActiveStep, targetPrice } from './targets.ts';

/** The nearest level on each side; `trailing`: the level only moves a trailing extreme. */
class Band {
  below?: Decimal;
  above?: Decimal;
  belowTrails = false;
  aboveTrails = false;

  low(price: Decimal | undefined, trailing = false): void {
    if (price === undefined) return;
    if (this.below === undefined || price.gt(this.below) || (price.eq(this.below) && !trailing)) {
      this.below = price;
      this.belowTrails = trailing;
    }
  }

  high(price: Decimal | undefined, trailing = false): void {
    if (price === undefined) return;
    if (this.above === undefined || price.lt(this.above) || (price.eq(this.above) && !trailing)) {
      this.above = price;
      this.aboveTrails = trailing;
    }
  }

  watch(pair: string): PriceWatch[] {
    if (this.below === undefined && this.above === undefined) return [];
    const trailing = this.belowTrails || this.aboveTrails ? { trailing: { below: this.belowTrails, above: this.aboveTrails } } : {};
    return [{ pair, ...(this.below === undefined ? {} : { below: this.below }), ...(this.above === undefined ? {} : { above: this.above }), ...trailing }];
  }
}

export function smartTradeWatches(state: SmartTradeState): PriceWatch[] {
  const band = new Band();
  const long = state.config.side === 'buy';
  const step = state.market.priceStep;
  if (state.status === 'waiting_position') entryBand(state, band, long, step);
  else if (state.status === 'waiting_targets' || state.status === 'pending_reduce_funds') targetsBand(state, band, long, step);
  return band.watch(state.config.pair);
}

function entryBand(state: SmartTradeState, band: Band, long: boolean, step: Decimal): void {
  const conditional = state.config.entry.conditional;
  const position = state.position;
  if (!conditional) return;
  if (position.status === 'to_process') {
    if (position.condition === 'greater_or_equal') band.high(conditional.trigger);
    else band.low(conditional.trigger);
  } else if (position.status === 'trailing_activated' && position.extreme !== undefined) {
    const turn = conditional.trailingPercent!.div(100);
    if (long) {
      band.low(position.extreme.minus(step), true);
      band.high(position.extreme.times(turn.plus(1)));
    } else {
      band.high(position.extreme.plus(step), true);
      band.low(position.extreme.times(turn.negated().plus(1)));
    }
  }
}

function targetsBand(state: SmartTradeState, band: Band, long: boolean, step: Decimal): void {
  const f = figures(state);
  for (const target of state.steps) {
    if (!isActiveStep(target) || (target.orderType === 'limit' && target.trailingPercent === undefined)) continue;
    if (target.status === 'idle') {
      const price = targetPrice(state, target, f);
      if (long) band.high(price);
      else band.low(price);
    } else if (target.status === 'trailing_activated' && target.extreme !== undefined) {
      const pullback = target.trailingPercent!.div(100);
      if (long) {
        band.high(target.extreme.plus(step), true);
        band.low(target.extreme.times(pullback.negated().plus(1)));
      } else {
        band.low(target.extreme.minus(step), true);
        band.high(target.extreme.times(pullback.plus(1)));
      }
    }
  }
  const stopLoss = state.stopLoss;
  if (state.config.stopLoss && stopLoss?.status === 'idle') {
    const level = stopLossLevel(state, f);
    if (long) band.low(level);
    else band.high(level);
    if (state.config.stopLoss.trailing && stopLoss.extreme !== undefined) {
      if (long) band.high(stopLoss.extreme.plus(step), true);
      else band.low(stopLoss.extreme.minus(step), true);
    }
  }
}
