/**
 * The grid bot as the engine runs it. State is stored compactly: each line is one array
 * [id, k, price, side, placed, amount, order, cost, refused, partial, grown], decimals as strings.
 * Fields added since the first stored form read as their defaults when absent.
 */
import type { Side } from '../../domain/automation.ts';
import { type GridBotInput, stepGridBot, type GridBotAction } from '../../domain/grid-bot/grid-bot.ts';
import type { GridBotConfig } from '../../domain/grid-bot/grid-bot-config.ts';
import { gridWatches } from '../../domain/grid-bot/grid-market.ts';
import type { GridProfitRecord } from '../../domain/grid-bot/grid-output.ts';
import {
  type GridBotState, type GridFigures, type GridLine, isEnabled, type PartialFill, type PendingStop, shapeOf, sharedAmount, type SideOrder,
} from '../../domain/grid-bot/grid-bot-state.ts';
import type { GridShape } from '../../domain/grid-bot/grid-lines.ts';
import { usdPairs } from '../../domain/grid-bot/usd-rate.ts';
import { type Decimal, dec } from '../../shared/decimal.ts';
import type { AutomationKind } from '../automation-kind.ts';
import { diffInto, type StateChange } from '../state-changes.ts';

type Json = Record<string, unknown>;
type LineJson = [number, number, string, 0 | 1 | 2, 0 | 1, string, number, string | null, 0 | 1, string[] | null, (0 | 1)?];

const SIDES: Array<Side | null> = [null, 'buy', 'sell'];
const text = (value: Decimal) => value.toFixed();
const maybeText = (value: Decimal | null) => (value === null ? null : value.toFixed());
const maybeDec = (value: unknown) => (value === null || value === undefined ? null : dec(value as string));

const partialJson = (p: PartialFill | null) => (p === null ? null : [text(p.amount), text(p.quote), text(p.feeBase), text(p.feeQuote)]);
const partialOf = (json: string[] | null): PartialFill | null =>
  json === null ? null : { amount: dec(json[0]!), quote: dec(json[1]!), feeBase: dec(json[2]!), feeQuote: dec(json[3]!) };

/**
 * A part of a stored state: its key, the value it is made from, and how that value is stored (a
 * function, or the fields of a nested object). The changes between two states are found field by
 * field, and a field whose value a step kept (the same decimal, the same object) is not encoded.
 */
type Field<T> = readonly [key: string | number, value: (from: T) => unknown, json: ((value: never) => unknown) | readonly Field<never>[]];

function encodeFields<T>(fields: readonly Field<T>[], from: T): Json {
  const json: Json = {};
  for (const [key, value, encode] of fields) json[key] = typeof encode === 'function' ? encode(value(from) as never) : encodeFields(encode, value(from) as never);
  return json;
}

function diffFields<T>(fields: readonly Field<T>[], base: T, next: T, path: Array<string | number>, out: StateChange[]): void {
  for (const [key, value, encode] of fields) {
    const before = value(base);
    const after = value(next);
    if (before === after) continue;
    path.push(key);
    // A decimal a step replaced: its text only if its value moved (most fields of a fill do).
    if (encode === text) {
      if (!sameText(before as Decimal, after as Decimal)) out.push([[...path], text(after as Decimal)]);
    } else if (typeof encode === 'function') diffInto(encode(before as never), encode(after as never), path, out);
    else diffFields(encode, before as never, after as never, path, out);
    path.pop();
  }
}

/** Whether two decimals have the same text: the same value, and -0 apart from 0. */
const sameText = (a: Decimal, b: Decimal) => a.eq(b) && a.isNeg() === b.isNeg();

const same = <T>(value: T) => value;
const flag = (value: boolean) => (value ? 1 : 0);

/** A line's fields, by their place in its stored array. */
const LINE_FIELDS: readonly Field<GridLine>[] = [
  [0, (l) => l.id, same],
  [1, (l) => l.index, same],
  [2, (l) => l.price, text],
  [3, (l) => l.side, (side: Side | null) => SIDES.indexOf(side)],
  [4, (l) => l.placed, flag],
  [5, (l) => l.amount, text],
  [6, (l) => l.order, same],
  [7, (l) => l.cost, maybeText],
  [8, (l) => l.refused, flag],
  [9, (l) => l.partial, partialJson],
  [10, (l) => l.grown, flag],
];

const lineJson = (l: GridLine): LineJson => LINE_FIELDS.map(([, value, encode]) => (encode as (value: never) => unknown)(value(l) as never)) as LineJson;
const lineOf = ([id, index, price, side, placed, amount, order, cost, refused, partial, grown]: LineJson, before?: GridLine): GridLine => ({
  id, index, price: dec(price), side: SIDES[side]!, placed: placed === 1, amount: sharedAmount(dec(amount), before), order,
  cost: maybeDec(cost), refused: refused === 1, grown: grown === 1, partial: partialOf(partial),
});
const linesOf = (json: LineJson[]): GridLine[] => {
  const lines: GridLine[] = [];
  for (const line of json) lines.push(lineOf(line, lines.at(-1)));
  return lines;
};
const shapeJson = (shape: GridShape) => ({ ...shape, lowerPrice: text(shape.lowerPrice), upperPrice: text(shape.upperPrice) });
const shapeOfJson = (json: Json): GridShape => ({
  ...(json as unknown as GridShape),
  lowerPrice: dec(json.lowerPrice as string),
  upperPrice: dec(json.upperPrice as string),
});
const pairJson = (amounts: { base: Decimal; quote: Decimal }) => [text(amounts.base), text(amounts.quote)];
const pairOf = (json: unknown) => {
  const [base, quote] = (json as [string, string] | undefined) ?? ['0', '0'];
  return { base: dec(base), quote: dec(quote) };
};

const sideOrderJson = (o: SideOrder | null) => o && { order: o.order, side: o.side, amount: text(o.amount), partial: partialJson(o.partial) };
const sideOrderOf = (json: Json | null): SideOrder | null =>
  json && { order: json.order as number, side: json.side as Side, amount: dec(json.amount as string), partial: partialOf(json.partial as string[] | null) };

function configJson(c: GridBotConfig): Json {
  return {
    ...c,
    upperPrice: text(c.upperPrice),
    lowerPrice: text(c.lowerPrice),
    quantityPerGrid: text(c.quantityPerGrid),
    expansionUp: { ...c.expansionUp, stopPrice: maybeText(c.expansionUp.stopPrice) },
    expansionDown: { ...c.expansionDown, stopPrice: maybeText(c.expansionDown.stopPrice) },
    upperStopLoss: { ...c.upperStopLoss, price: maybeText(c.upperStopLoss.price) },
    lowerStopLoss: { ...c.lowerStopLoss, price: maybeText(c.lowerStopLoss.price) },
    leverageCustomValue: maybeText(c.leverageCustomValue),
  };
}

function configOf(json: Json): GridBotConfig {
  const nested = (key: string) => json[key] as Json;
  return {
    ...(json as unknown as GridBotConfig),
    upperPrice: dec(json.upperPrice as string),
    lowerPrice: dec(json.lowerPrice as string),
    quantityPerGrid: dec(json.quantityPerGrid as string),
    expansionUp: { enabled: nested('expansionUp').enabled as boolean, stopPrice: maybeDec(nested('expansionUp').stopPrice) },
    expansionDown: { enabled: nested('expansionDown').enabled as boolean, stopPrice: maybeDec(nested('expansionDown').stopPrice) },
    upperStopLoss: { ...(nested('upperStopLoss') as unknown as GridBotConfig['upperStopLoss']), price: maybeDec(nested('upperStopLoss').price) },
    lowerStopLoss: { ...(nested('lowerStopLoss') as unknown as GridBotConfig['lowerStopLoss']), price: maybeDec(nested('lowerStopLoss').price) },
    leverageCustomValue: maybeDec(json.leverageCustomValue),
  };
}

const DECIMAL_FIGURES = [
  'profit', 'profitUsd', 'profitAtStart', 'boughtVolume', 'soldVolume', 'investmentBase', 'investmentQuote', 'capital', 'flowQuote', 'flowBase',
] as const;

const FIGURE_FIELDS: readonly Field<GridFigures>[] = [
  ...DECIMAL_FIGURES.map((key): Field<GridFigures> => [key, (f) => f[key], text]),
  ['profitsCount', (f) => f.profitsCount, same],
];

function figuresOf(json: Json): GridFigures {
  const decimals = Object.fromEntries(DECIMAL_FIGURES.map((key) => [key, dec(json[key] as string)]));
  return { ...(decimals as Record<(typeof DECIMAL_FIGURES)[number], Decimal>), profitsCount: json.profitsCount as number };
}

/** The state's fields beside its settings and lines, which are compared apart (a step seldom changes them). */
const REST_FIELDS: readonly Field<GridBotState>[] = [
  ['status', (s) => s.status, same],
  ['nextLineId', (s) => s.nextLineId, same],
  ['seq', (s) => s.seq, same],
  ['priceStep', (s) => s.priceStep, text],
  ['startPrice', (s) => s.startPrice, maybeText],
  ['origin', (s) => s.origin, shapeJson],
  ['balancing', (s) => s.balancing, sideOrderJson],
  ['stopOrder', (s) => s.stopOrder, sideOrderJson],
  ['stop', (s) => s.stop, same],
  ['carry', (s) => s.carry, (carry: GridBotState['carry']) => [text(carry.base), text(carry.value)]],
  ['reserve', (s) => s.reserve, pairJson],
  // The three flags as one number, so that states that kept them compare equal without encoding.
  ['ended', (s) => flag(s.trailingUpEnded) + 2 * flag(s.growDownEnded) + 4 * flag(s.growUpEnded), (ended: number) => [(ended & 1) > 0, (ended & 2) > 0, (ended & 4) > 0]],
  ['error', (s) => s.error, same],
  ['figures', (s) => s.figures, FIGURE_FIELDS],
];

export const gridBotKind: AutomationKind<GridBotState, GridBotAction, GridProfitRecord> = {
  name: 'grid_bot',
  orderIdPrefix: 'g',
  step: (state, input, context) => stepGridBot(state, input as GridBotInput, context),
  watches: gridWatches,
  isRunning: isEnabled,
  pairs: (state) => [state.config.pair, ...usdPairs(state.config.quote)],
  quarantine: (state, reason) => ({ ...state, status: 'disabled', error: reason }),
  toJson: (s) => ({ config: configJson(s.config), lines: s.lines.map(lineJson), ...encodeFields(REST_FIELDS, s) }),
  changesBetween: (base, next, path, out) => {
    if (base.config !== next.config) diffInto(configJson(base.config), configJson(next.config), [...path, 'config'], out);
    if (base.lines.length !== next.lines.length) out.push([[...path, 'lines'], next.lines.map(lineJson)]);
    else {
      for (let index = 0; index < next.lines.length; index += 1) {
        const line = next.lines[index]!;
        if (base.lines[index] !== line) diffFields(LINE_FIELDS, base.lines[index]!, line, [...path, 'lines', index], out);
      }
    }
    diffFields(REST_FIELDS, base, next, path, out);
  },
  fromJson: (raw) => {
    const json = raw as Json;
    const ended = json.ended as [boolean, boolean, boolean];
    const config = configOf(json.config as Json);
    const carry = pairOf(json.carry);
    return {
      config,
      status: json.status as GridBotState['status'],
      lines: linesOf(json.lines as LineJson[]),
      nextLineId: json.nextLineId as number,
      seq: json.seq as number,
      priceStep: dec(json.priceStep as string),
      origin: json.origin ? shapeOfJson(json.origin as Json) : shapeOf(config),
      startPrice: maybeDec(json.startPrice),
      balancing: sideOrderOf(json.balancing as Json | null),
      stopOrder: sideOrderOf(json.stopOrder as Json | null),
      stop: (json.stop as PendingStop | undefined) ?? null,
      carry: { base: carry.base, value: carry.quote },
      reserve: pairOf(json.reserve),
      trailingUpEnded: ended[0],
      growDownEnded: ended[1],
      growUpEnded: ended[2],
      error: (json.error as string | undefined) ?? null,
      figures: figuresOf(json.figures as Json),
    };
  },
};
