/**
 * Request schemas of the DCA bot and deal endpoints. Decimals are strings (JSON numbers are
 * converted); nested lists also come as JSON text from form clients, parsed by `jsonLists`.
 */
import Type, { type TSchema } from 'typebox';
import type { BotParams } from '../../domain/dca-bot/bot-params.ts';
import { errors, FieldErrorCollector } from '../../shared/errors.ts';
import { fieldName, unstorableText } from '../validation.ts';
import { Id, oneOf } from './common.ts';

export const DecimalText = Type.String({ pattern: '^-?\\d+(\\.\\d+)?$', maxLength: 40 });
const Nullable = <S extends TSchema>(schema: S) => Type.Union([schema, Type.Null()]);
/** Form clients send nested lists as JSON text; both forms are taken. */
const ListOrJson = <S extends TSchema>(item: S, options = {}) => Type.Union([Type.Array(item, { maxItems: 200, ...options }), Type.String({ maxLength: 20000 })]);

const StrategyItem = Type.Object({ strategy: Type.String({ minLength: 1, maxLength: 50 }), options: Type.Optional(Type.Record(Type.String(), Type.Unknown())) });
export const TakeProfitStep = Type.Object({ amount_percentage: DecimalText, profit_percentage: DecimalText, id: Type.Optional(Type.Unknown()) });
export const SafetyStep = Type.Object({ deviation: DecimalText, size: DecimalText, editable: Type.Optional(Type.Unknown()) });
const VolumeType = oneOf(['quote_currency', 'base_currency', 'percent']);

/** Fields a deal can be edited with as well (update_deal). */
export const DEAL_SETTING_FIELDS = {
  take_profit: Type.Optional(Nullable(DecimalText)),
  take_profit_steps: Type.Optional(ListOrJson(TakeProfitStep)),
  take_profit_type: Type.Optional(oneOf(['base', 'total'])),
  profit_currency: Type.Optional(oneOf(['quote_currency', 'base_currency'])),
  trailing_enabled: Type.Optional(Type.Boolean()),
  trailing_deviation: Type.Optional(Nullable(DecimalText)),
  stop_loss_percentage: Type.Optional(Nullable(DecimalText)),
  stop_loss_type: Type.Optional(oneOf(['stop_loss', 'stop_loss_and_disable_bot'])),
  stop_loss_timeout_enabled: Type.Optional(Type.Boolean()),
  stop_loss_timeout_in_seconds: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 2592000 }))),
  tsl_enabled: Type.Optional(Type.Boolean()),
  sl_to_breakeven_enabled: Type.Optional(Type.Boolean()),
  sl_to_breakeven_data: Type.Optional(Type.Unknown()),
  max_safety_orders: Type.Optional(Type.Integer({ minimum: 0, maximum: 200 })),
  active_safety_orders_count: Type.Optional(Type.Integer({ minimum: 0, maximum: 200 })),
  custom_safety_steps: Type.Optional(ListOrJson(SafetyStep)),
  min_profit_percentage: Type.Optional(Nullable(DecimalText)),
};

const BOT_FIELDS = {
  ...DEAL_SETTING_FIELDS,
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  pairs: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { minItems: 1, maxItems: 200 })),
  max_active_deals: Type.Optional(Type.Integer({ minimum: 1, maximum: 199 })),
  strategy: Type.Optional(oneOf(['long', 'short'])),
  base_order_volume: Type.Optional(DecimalText),
  base_order_volume_type: Type.Optional(VolumeType),
  safety_order_volume: Type.Optional(DecimalText),
  safety_order_volume_type: Type.Optional(VolumeType),
  start_order_type: Type.Optional(oneOf(['limit', 'market'])),
  strategy_list: Type.Optional(ListOrJson(StrategyItem)),
  close_strategy_list: Type.Optional(ListOrJson(StrategyItem)),
  safety_strategy_list: Type.Optional(Type.Unknown()),
  safety_order_step_percentage: Type.Optional(DecimalText),
  martingale_volume_coefficient: Type.Optional(DecimalText),
  martingale_step_coefficient: Type.Optional(DecimalText),
  min_price: Type.Optional(Nullable(DecimalText)),
  max_price: Type.Optional(Nullable(DecimalText)),
  min_price_percentage: Type.Optional(Nullable(DecimalText)),
  max_price_percentage: Type.Optional(Nullable(DecimalText)),
  cooldown: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 2592000 }))),
  disable_after_deals_count: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 1000000 }))),
  allowed_deals_on_same_pair: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 199 }))),
  close_deals_timeout: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 2592000 }))),
  deal_start_delay_seconds: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 2592000 }))),
  leverage_type: Type.Optional(oneOf(['cross', 'isolated', 'not_specified'])),
  leverage_custom_value: Type.Optional(Nullable(DecimalText)),
  min_profit_type: Type.Optional(Nullable(oneOf(['base_order_volume', 'total_bought_volume']))),
  reinvesting_percentage: Type.Optional(Nullable(DecimalText)),
  risk_reduction_percentage: Type.Optional(Nullable(DecimalText)),
  min_volume_btc_24h: Type.Optional(Nullable(DecimalText)),
  btc_price_limit: Type.Optional(Nullable(DecimalText)),
};

const REQUIRED_ON_CREATE = [
  'name', 'pairs', 'base_order_volume', 'take_profit_type', 'safety_order_volume', 'safety_order_step_percentage',
  'max_safety_orders', 'active_safety_orders_count', 'martingale_volume_coefficient', 'martingale_step_coefficient', 'strategy_list',
] as const;

export const CreateBotInput = Type.Object({
  account_id: Id,
  ...BOT_FIELDS,
  ...Object.fromEntries(REQUIRED_ON_CREATE.map((field) => [field, required(BOT_FIELDS[field])])),
});
export const UpdateBotInput = Type.Object({ bot_id: Id, ...BOT_FIELDS });
export const BotId = Type.Object({ bot_id: Id });

/** The required form of an optional field (TypeBox marks optional properties with `~optional`). */
function required(schema: TSchema): TSchema {
  const { ['~optional']: _optional, ...rest } = schema as TSchema & { '~optional'?: boolean };
  return rest as TSchema;
}

/**
 * Parses list fields sent as JSON text; a field that is not valid JSON is named. The text was
 * checked before parsing, but escapes such as `\u0000` only become characters here, so the list
 * is checked again for text that cannot be stored.
 */
export function jsonLists<T extends Record<string, unknown>>(input: T, fields: readonly string[]): T {
  const parsed: Record<string, unknown> = { ...input };
  const invalid = new FieldErrorCollector();
  for (const field of fields) {
    const value = parsed[field];
    if (typeof value !== 'string') continue;
    let list: unknown;
    try {
      list = JSON.parse(value);
    } catch {
      list = undefined;
    }
    if (!Array.isArray(list)) throw errors.recordInvalid({ [field]: ['is invalid'] });
    for (const [path, message] of unstorableText(list, `/${field}`)) invalid.add(fieldName(path), message);
    parsed[field] = list;
  }
  invalid.throwIfAny();
  return parsed as T;
}

const LIST_FIELDS = ['strategy_list', 'close_strategy_list', 'take_profit_steps', 'custom_safety_steps'];
export const toParams = (input: Record<string, unknown>) => jsonLists(input, LIST_FIELDS) as unknown as BotParams;
