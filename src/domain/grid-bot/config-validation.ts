/**
 * Turns a create or edit body into grid settings, checking every field against the market's rules
 * and against the other fields. Failures come back keyed by field name with the reference's kind
 * of message ("is missing", "must be less than upper_price", ...), never as a thrown error.
 */
import type { TradingRules } from '../market/trading-rules.ts';
import type { Pair } from '../market/pair.ts';
import { type Decimal, dec } from '../../shared/decimal.ts';
import type { FieldErrors } from '../../shared/errors.ts';
import {
  CURRENCY_TYPES,
  type Expansion,
  GRID_MODES,
  GRID_TYPES,
  type GridBotConfig,
  LEVERAGE_TYPES,
  MAX_GRIDS,
  MIN_GRIDS,
  STOP_LOSS_ACTIONS,
  type StopLoss,
} from './grid-bot-config.ts';
import type { GridBotParams } from './grid-bot-params.ts';
import { gridPrices, linesAreDistinct } from './grid-lines.ts';
import { buyAmount } from './grid-orders.ts';
import { Errors } from './field-errors.ts';

export const NAME_MAX = 40;
export const NOTE_MAX = 300;
const DECIMAL = /^\d+(\.\d+)?([eE][-+]?\d+)?$/;

export type ConfigResult = { ok: true; config: GridBotConfig } | { ok: false; errors: FieldErrors };

/**
 * `previous` is the bot's current settings when editing: fields the body leaves out keep their
 * values. Without it, they take the reference's defaults. `feeRate` is the fee each of a cycle's two
 * orders is expected to pay: a grid whose step earns less than both is refused unless
 * `ignore_warnings` is true.
 */
export function buildGridConfig(
  params: GridBotParams,
  pair: Pair,
  rules: TradingRules,
  feeRate: Decimal,
  previous?: GridBotConfig,
): ConfigResult {
  const errors = new Errors();
  const has = <K extends keyof GridBotParams>(key: K) => params[key] !== undefined && params[key] !== null;
  const price = (key: keyof GridBotParams, fallback: Decimal | null, required = false): Decimal | null => {
    const raw = params[key];
    if (raw === undefined || raw === null) {
      if (required) errors.add(key, 'is missing');
      return fallback;
    }
    if (typeof raw !== 'string' || !DECIMAL.test(raw)) return errors.add(key, 'is invalid'), fallback;
    const value = dec(raw);
    if (value.lte(0)) return errors.add(key, 'must be greater than 0'), fallback;
    return value;
  };
  const oneOf = <T extends string>(key: keyof GridBotParams, values: readonly T[], fallback: T): T => {
    const raw = params[key];
    if (raw === undefined || raw === null) return fallback;
    if (!(values as readonly unknown[]).includes(raw)) return errors.add(key, 'does not have a valid value'), fallback;
    return raw as T;
  };
  const flag = (key: keyof GridBotParams, fallback: boolean) => (has(key) ? params[key] === true : fallback);

  const name = has('name') ? String(params.name).trim() : (previous?.name ?? `${pair.code} Grid Bot`);
  if (name.length === 0) errors.add('name', 'is empty');
  if (name.length > NAME_MAX) errors.add('name', `too long. Max is ${NAME_MAX} symbols`);

  const upperPrice = price('upper_price', null, true);
  const lowerPrice = price('lower_price', null, true);
  const quantityPerGrid = price('quantity_per_grid', null, true);
  for (const [key, value] of [['upper_price', upperPrice], ['lower_price', lowerPrice]] as const) {
    if (value === null) continue;
    if (value.lt(rules.minPrice)) errors.add(key, `must be greater than or equal to ${rules.minPrice.toFixed()}`);
    if (value.gt(rules.maxPrice)) errors.add(key, `must be less than or equal to ${rules.maxPrice.toFixed()}`);
  }
  if (upperPrice && lowerPrice && lowerPrice.gte(upperPrice)) errors.add('lower_price', 'must be less than upper_price');

  const gridsQuantity = has('grids_quantity') ? params.grids_quantity! : null;
  if (gridsQuantity === null) errors.add('grids_quantity', 'is missing');
  else if (!Number.isInteger(gridsQuantity)) errors.add('grids_quantity', 'is invalid');
  else if (gridsQuantity < MIN_GRIDS) errors.add('grids_quantity', `must be greater than or equal to ${MIN_GRIDS}`);
  else if (gridsQuantity > MAX_GRIDS) errors.add('grids_quantity', `must be less than or equal to ${MAX_GRIDS}`);

  const maxActive = (key: 'max_active_buy_lines' | 'max_active_sell_lines', fallback: number | null) => {
    if (!has(key)) return fallback;
    const value = params[key]!;
    if (!Number.isInteger(value) || value < 1) return errors.add(key, 'must be greater than or equal to 1'), fallback;
    return value;
  };

  const stopLoss = (side: 'upper' | 'lower', fallback: StopLoss | undefined): StopLoss => ({
    enabled: flag(`${side}_stop_loss_enabled`, fallback?.enabled ?? false),
    price: price(`${side}_stop_loss_price`, fallback?.price ?? null),
    action: oneOf(`${side}_stop_loss_action`, STOP_LOSS_ACTIONS, fallback?.action ?? 'stop_bot'),
  });
  const expansion = (side: 'up' | 'down', fallback: Expansion | undefined): Expansion => ({
    enabled: flag(`expansion_${side}_enabled`, fallback?.enabled ?? false),
    stopPrice: price(`expansion_${side}_stop_price`, fallback?.stopPrice ?? null),
  });

  const note = has('note') ? String(params.note) : (previous?.note ?? null);
  if (note !== null && note.length > NOTE_MAX) errors.add('note', `too long. Max is ${NOTE_MAX} symbols`);

  const config: GridBotConfig = {
    name,
    pair: pair.code,
    base: pair.base,
    quote: pair.quote,
    upperPrice: upperPrice ?? dec(0),
    lowerPrice: lowerPrice ?? dec(0),
    gridsQuantity: gridsQuantity ?? MIN_GRIDS,
    gridType: oneOf('grid_type', GRID_TYPES, previous?.gridType ?? 'arithmetic'),
    quantityPerGrid: quantityPerGrid ?? dec(0),
    orderCurrencyType: oneOf('order_currency_type', CURRENCY_TYPES, previous?.orderCurrencyType ?? 'base'),
    profitCurrencyType: oneOf('profit_currency_type', CURRENCY_TYPES, previous?.profitCurrencyType ?? 'quote'),
    maxActiveBuyLines: maxActive('max_active_buy_lines', previous?.maxActiveBuyLines ?? null),
    maxActiveSellLines: maxActive('max_active_sell_lines', previous?.maxActiveSellLines ?? null),
    trailingUpEnabled: flag('trailing_up_enabled', previous?.trailingUpEnabled ?? false),
    trailingDownEnabled: flag('trailing_down_enabled', previous?.trailingDownEnabled ?? false),
    expansionUp: expansion('up', previous?.expansionUp),
    expansionDown: expansion('down', previous?.expansionDown),
    upperStopLoss: stopLoss('upper', previous?.upperStopLoss),
    lowerStopLoss: stopLoss('lower', previous?.lowerStopLoss),
    leverageType: oneOf('leverage_type', LEVERAGE_TYPES, (previous?.leverageType as 'cross') ?? 'not_specified'),
    leverageCustomValue: price('leverage_custom_value', previous?.leverageCustomValue ?? null),
    mode: has('mode') ? oneOf('mode', GRID_MODES, 'long') : (previous?.mode ?? null),
    ignoreWarnings: flag('ignore_warnings', false),
    note,
  };
  if (errors.isEmpty) checkRelations(config, rules, feeRate, errors);
  return errors.isEmpty ? { ok: true, config } : { ok: false, errors: errors.collected };
}

/** Rules between fields, checked once every field has a valid value of its own. */
function checkRelations(config: GridBotConfig, rules: TradingRules, feeRate: Decimal, errors: Errors): void {
  if (config.profitCurrencyType === 'base') {
    errors.add('profit_currency_type', 'base is not supported: profits are kept in the quote currency');
  }
  if (config.trailingUpEnabled && config.orderCurrencyType !== 'quote') {
    errors.add('trailing_up_enabled', 'is available only with order_currency_type quote');
  }
  const prices = gridPrices(config, rules.priceStep);
  if (!linesAreDistinct(prices)) {
    errors.add('grids_quantity', 'is too large for the price range: grid lines would share a price');
  }
  checkOrderSizes(config, prices, rules, errors);
  if (!config.ignoreWarnings && linesAreDistinct(prices)) checkStepCoversFees(prices, feeRate, errors);
  const { upperStopLoss, lowerStopLoss, expansionUp, expansionDown, upperPrice, lowerPrice } = config;
  if (upperStopLoss.enabled && upperStopLoss.price === null) errors.add('upper_stop_loss_price', 'is missing');
  if (upperStopLoss.enabled && upperStopLoss.price?.lte(upperPrice)) {
    errors.add('upper_stop_loss_price', 'must be greater than upper_price');
  }
  if (lowerStopLoss.enabled && lowerStopLoss.price === null) errors.add('lower_stop_loss_price', 'is missing');
  if (lowerStopLoss.enabled && lowerStopLoss.price?.gte(lowerPrice)) {
    errors.add('lower_stop_loss_price', 'must be less than lower_price');
  }
  if (expansionUp.enabled && expansionUp.stopPrice === null) errors.add('expansion_up_stop_price', 'is missing');
  if (expansionUp.enabled && expansionUp.stopPrice?.lte(upperPrice)) {
    errors.add('expansion_up_stop_price', 'must be greater than upper_price');
  }
  if (expansionDown.enabled && expansionDown.stopPrice === null) errors.add('expansion_down_stop_price', 'is missing');
  if (expansionDown.enabled && expansionDown.stopPrice?.gte(lowerPrice)) {
    errors.add('expansion_down_stop_price', 'must be less than lower_price');
  }
}

/**
 * A cycle buys q at P and sells it one line up at P': it earns q·(P' − P) and pays about
 * fee·q·(P + P'), so a step at or under that loses money on every cycle. Steps are checked from the
 * top, where an arithmetic grid's are narrowest.
 */
function checkStepCoversFees(prices: readonly Decimal[], feeRate: Decimal, errors: Errors): void {
  const percent = (value: Decimal) => value.times(100).toSignificantDigits(3).toFixed();
  for (let i = prices.length - 1; i > 0; i -= 1) {
    const [low, high] = [prices[i - 1]!, prices[i]!];
    if (high.minus(low).gt(feeRate.times(low.plus(high)))) continue;
    errors.add(
      'grids_quantity',
      `gives a step of ${percent(high.minus(low).div(low))} % at ${low.toFixed()}, which does not cover the round-trip fee of ` +
        `${percent(feeRate.times(2))} %: use fewer lines or a wider range (or ignore_warnings)`,
    );
    return;
  }
}

/** Every line's order must pass the market's minimum amount and total. */
function checkOrderSizes(config: GridBotConfig, prices: readonly Decimal[], rules: TradingRules, errors: Errors): void {
  for (const price of prices) {
    const amount = buyAmount(config, price, rules);
    if (amount.lt(rules.minLotSize) || amount.isZero()) {
      const unit = config.orderCurrencyType === 'quote' ? `at ${price.toFixed()} ` : '';
      errors.add('quantity_per_grid', `gives an order ${unit}below the minimum amount of ${rules.minLotSize.toFixed()} ${config.base}`);
      return;
    }
    if (amount.times(price).lt(rules.minTotal)) {
      errors.add('quantity_per_grid', `gives an order at ${price.toFixed()} below the minimum total of ${rules.minTotal.toFixed()} ${config.quote}`);
      return;
    }
  }
}
