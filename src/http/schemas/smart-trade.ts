/**
 * Request schemas of /v2/smart_trades, as the reference names the fields. Decimals are strings
 * (JSON numbers are accepted and read as their text); groups a client does not use may be left
 * out. Which fields an enabled group needs, and the rules between fields, are checked by the
 * SmartTrade settings reader and validation, with the same bracketed names.
 */
import Type from 'typebox';
import { Id, oneOf, Page } from './common.ts';
import { Instant } from './instant.ts';

export const Decimal = Type.String({ pattern: '^\\d+(\\.\\d+)?$', maxLength: 40 });
const PriceType = oneOf(['bid', 'ask', 'last']);
const OrderKind = oneOf(['market', 'limit']);
const Price = Type.Object({ type: Type.Optional(PriceType), value: Type.Optional(Decimal), percent: Type.Optional(Decimal) });
const Trailing = Type.Object({ enabled: Type.Optional(Type.Boolean()), percent: Type.Optional(Decimal) });
const Value = Type.Object({ value: Type.Optional(Decimal) });

const Conditional = Type.Object({
  order_type: Type.Optional(OrderKind),
  price: Type.Optional(Price),
  trailing: Type.Optional(Trailing),
});

const TakeProfit = Type.Object({
  enabled: Type.Optional(Type.Boolean()),
  steps: Type.Optional(
    Type.Array(
      Type.Object({
        id: Type.Optional(Id),
        order_type: Type.Optional(OrderKind),
        volume: Type.Optional(Decimal),
        price: Type.Optional(Price),
        trailing: Type.Optional(Trailing),
      }),
      { maxItems: 8 },
    ),
  ),
});

const StopLoss = Type.Object({
  enabled: Type.Optional(Type.Boolean()),
  breakeven: Type.Optional(Type.Boolean()),
  order_type: Type.Optional(OrderKind),
  price: Type.Optional(Value),
  conditional: Type.Optional(Type.Object({ price: Type.Optional(Price), trailing: Type.Optional(Trailing) })),
  timeout: Type.Optional(Type.Object({ enabled: Type.Optional(Type.Boolean()), value: Type.Optional(Type.Integer({ minimum: 1, maximum: 31_536_000 })) })),
});

const Leverage = Type.Object({ enabled: Type.Optional(Type.Boolean()) });
const Note = Type.String({ minLength: 1, maxLength: 300 });

export const CreateSmartTrade = Type.Object({
  account_id: Id,
  pair: Type.String({ minLength: 1, maxLength: 40 }),
  instant: Type.Optional(Type.Boolean()),
  skip_enter_step: Type.Optional(Type.Boolean()),
  note: Type.Optional(Note),
  leverage: Type.Optional(Leverage),
  position: Type.Object({
    type: oneOf(['buy', 'sell']),
    order_type: oneOf(['market', 'limit', 'conditional']),
    units: Type.Object({ value: Decimal }),
    price: Type.Optional(Value),
    conditional: Type.Optional(Conditional),
  }),
  take_profit: Type.Optional(TakeProfit),
  stop_loss: Type.Optional(StopLoss),
});

export const EditSmartTrade = Type.Object({
  id: Id,
  leverage: Type.Optional(Leverage),
  position: Type.Optional(
    Type.Object({
      units: Type.Optional(Value),
      price: Type.Optional(Value),
      conditional: Type.Optional(Conditional),
    }),
  ),
  take_profit: Type.Optional(TakeProfit),
  stop_loss: Type.Optional(StopLoss),
});

export const SMART_TRADE_TYPES = ['simple_buy', 'simple_sell', 'smart_sell', 'smart_trade', 'smart_cover', 'smart_buy'] as const;

export const ListSmartTrades = Type.Object({
  account_id: Type.Optional(Id),
  pair: Type.Optional(Type.String({ minLength: 1, maxLength: 40 })),
  type: Type.Optional(oneOf([...SMART_TRADE_TYPES])),
  page: Page,
  per_page: Type.Integer({ minimum: 1, maximum: 100, default: 10 }),
  status: Type.Optional(oneOf(['all', 'active', 'finished', 'successfully_finished', 'successfully_finish', 'cancelled', 'failed'])),
  order_by: oneOf(['created_at', 'updated_at', 'closed_at', 'status', 'profit', 'profit_percentage'], { default: 'status' }),
  order_direction: oneOf(['asc', 'desc', 'ASC', 'DESC'], { default: 'desc' }),
  from: Type.Optional(Instant),
  to: Type.Optional(Instant),
  base: Type.Optional(Type.String({ minLength: 1, maxLength: 20 })),
  quote: Type.Optional(Type.String({ minLength: 1, maxLength: 20 })),
});

export const SmartTradeId = Type.Object({ id: Id });
export const SubTradeId = Type.Object({ id: Id, trade_id: Id });
export const SmartTradeNote = Type.Object({ id: Id, note: Note });

export const SmartTradeFunds = Type.Object({
  id: Id,
  order_type: OrderKind,
  units: Type.Object({ value: Decimal }),
  price: Type.Optional(Value),
});
