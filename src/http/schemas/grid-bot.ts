/**
 * Parameters of the /ver1/grid_bots routes. The schemas check types, enumerations and lengths;
 * the rules that depend on the market or on other fields (price ranges, lower < upper, stop-loss
 * sides, per-grid minimums) are checked by the grid bots service, which names each bad field.
 */
import Type from 'typebox';
import { GRID_SORT_FIELDS } from '../../services/grid-bots.service.ts';
import { Id, Offset, oneOf, Page, SafeInteger } from './common.ts';
import { Instant } from './instant.ts';

/**
 * A non-negative decimal, sent as a JSON number or a string; kept as its exact text. An exponent
 * (JSON numbers such as 1e-7 arrive so) has at most two digits: "1e999999999" is 64 characters
 * short, but written out in full it would not fit in memory.
 */
const DecimalText = Type.String({ pattern: '^[0-9]+(\\.[0-9]+)?([eE][-+]?[0-9]{1,2})?$', maxLength: 64 });

const Flag = Type.Optional(Type.Boolean());
/**
 * Fields the reference's entity shows as null may come back as null when a client resends one.
 * Decimals need a union so that JSON numbers still convert to their text; the other nullable
 * fields use one schema with two types, which reports a bad value once.
 */
const NullableDecimal = Type.Optional(Type.Union([DecimalText, Type.Null()]));
const nullableEnum = <const Values extends string[]>(values: readonly [...Values]) =>
  Type.Optional(Type.Unsafe<Values[number] | null>({ enum: [...values, null] }));
const StopLossAction = Type.Optional(oneOf(['stop_bot', 'stop_bot_and_sell', 'stop_bot_and_buy']));

const settings = {
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 40 })),
  upper_price: DecimalText,
  lower_price: DecimalText,
  quantity_per_grid: DecimalText,
  grids_quantity: SafeInteger,
  grid_type: Type.Optional(oneOf(['arithmetic', 'geometric'])),
  order_currency_type: Type.Optional(oneOf(['base', 'quote'])),
  profit_currency_type: Type.Optional(oneOf(['base', 'quote'])),
  max_active_buy_lines: Type.Optional(SafeInteger),
  max_active_sell_lines: Type.Optional(SafeInteger),
  trailing_up_enabled: Flag,
  trailing_down_enabled: Flag,
  expansion_up_enabled: Flag,
  expansion_up_stop_price: NullableDecimal,
  expansion_down_enabled: Flag,
  expansion_down_stop_price: NullableDecimal,
  upper_stop_loss_enabled: Flag,
  upper_stop_loss_price: NullableDecimal,
  upper_stop_loss_action: StopLossAction,
  lower_stop_loss_enabled: Flag,
  lower_stop_loss_price: NullableDecimal,
  lower_stop_loss_action: StopLossAction,
  leverage_type: Type.Optional(oneOf(['cross', 'isolated', 'not_specified'])),
  leverage_custom_value: NullableDecimal,
  mode: nullableEnum(['long', 'short', 'reversal']),
  ignore_warnings: Flag,
  note: Type.Optional(Type.Unsafe<string | null>({ type: ['string', 'null'], minLength: 1, maxLength: 300 })),
};

export const CreateGridBot = Type.Object({ account_id: Id, pair: Type.String({ minLength: 1, maxLength: 50 }), ...settings });

/** The create body minus account_id; `pair` is accepted (deprecated in the reference) and must not change. */
export const UpdateGridBot = Type.Object({ id: Id, pair: Type.Optional(Type.String({ minLength: 1, maxLength: 50 })), ...settings });

const IdList = Type.String({ pattern: '^[0-9]{1,15}(,[0-9]{1,15})*$' });
const Direction = oneOf(['asc', 'desc', 'ASC', 'DESC']);

export const ListGridBots = Type.Object({
  account_ids: Type.Optional(Type.Array(Id, { maxItems: 1000 })),
  account_id: Type.Optional(IdList),
  state: Type.Optional(oneOf(['enabled', 'disabled'])),
  sort_by: Type.Optional(oneOf([...GRID_SORT_FIELDS])),
  sort_direction: Type.Optional(Direction),
  limit: Type.Integer({ minimum: 1, maximum: 1000, default: 10 }),
  offset: Offset,
  from: Type.Optional(Instant),
  base: Type.Optional(Type.String({ minLength: 1, maxLength: 20 })),
  quote: Type.Optional(Type.String({ minLength: 1, maxLength: 20 })),
});

export const GridBotId = Type.Object({ id: Id });

export const GridBotNote = Type.Object({ id: Id, note: Type.String({ maxLength: 300 }) });

export const GridBotEvents = Type.Object({
  id: Id,
  page: Page,
  per_page: Type.Integer({ minimum: 1, maximum: 100, default: 100 }),
});

export const GridBotMarketOrders = Type.Object({
  id: Id,
  limit: Type.Integer({ minimum: 1, maximum: 1000, default: 100 }),
  offset: Offset,
});

export const GridBotProfits = Type.Object({
  id: Id,
  from: Type.Optional(Instant),
  to: Type.Optional(Instant),
});
