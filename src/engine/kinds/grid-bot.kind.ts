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
  type GridBotState, type GridFigures, type GridLine, isEnabled, type PartialFill, type PendingStop, shapeOf, type SideOrder,
} from '../../domain/grid-bot/grid-bot-state.ts';
import type { GridShape } from '../../domain/grid-bot/grid-lines.ts';
import { usdPairs } from '../../domain/grid-bot/usd-rate.ts';
import { type Decimal, dec } from '../../shared/decimal.ts';
import type { AutomationKind } from '../automation-kind.ts';
import { diffInto } from '../state-changes.ts';

type Json = Record<string, unknown>;
type LineJson = [number, number, string, 0 | 1 | 2, 0 | 1, string, number, string | null, 0 | 1, string[] | null, (0 | 1)?];

const SIDES: Array<Side | null> = [null, 'buy', 'sell'];
const text = (value: Decimal) => value.toFixed();
const maybeText = (value: Decimal | null) => (value === null ? null : value.toFixed());
const maybeDec = (value: unknown) => (value === null || value === undefined ? null : dec(value as string));

const partialJson = (p: PartialFill | null) => (p === null ? null : [text(p.amount), text(p.quote), text(p.feeBase), text(p.feeQuote)]);
const partialOf = (json: string[] | null): PartialFill | null =>
  json === null ? null : { amount: dec(json[0]!), quote: dec(json[1]!), feeBase: dec(json[2]!), feeQuote: dec(json[3]!) };

const lineJson = (l: GridLine): LineJson => [
  l.id, l.index, text(l.price), SIDES.indexOf(l.side) as 0 | 1 | 2, l.placed ? 1 : 0, text(l.amount), l.order,
  maybeText(l.cost), l.refused ? 1 : 0, partialJson(l.partial), l.grown ? 1 : 0,
];
const lineOf = ([id, index, price, side, placed, amount, order, cost, refused, partial, grown]: LineJson): GridLine => ({
  id, index, price: dec(price), side: SIDES[side]!, placed: placed === 1, amount: dec(amount), order,
  cost: maybeDec(cost), refused: refused === 1, grown: grown === 1, partial: partialOf(partial),
});
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

function figuresJson(f: GridFigures): Json {
  return { ...Object.fromEntries(DECIMAL_FIGURES.map((key) => [key, text(f[key])])), profitsCount: f.profitsCount };
}

function figuresOf(json: Json): GridFigures {
  const decimals = Object.fromEntries(DECIMAL_FIGURES.map((key) => [key, dec(json[key] as string)]));
  return { ...(decimals as Record<(typeof DECIMAL_FIGURES)[number], Decimal>), profitsCount: json.profitsCount as number };
}

/** The state's JSON beside its settings and lines, which are compared apart (a step seldom changes them). */
const restJson = (s: GridBotState) => ({
  status: s.status,
  nextLineId: s.nextLineId,
  seq: s.seq,
  priceStep: text(s.priceStep),
  startPrice: maybeText(s.startPrice),
  origin: shapeJson(s.origin),
  balancing: sideOrderJson(s.balancing),
  stopOrder: sideOrderJson(s.stopOrder),
  stop: s.stop,
  carry: [text(s.carry.base), text(s.carry.value)],
  reserve: pairJson(s.reserve),
  ended: [s.trailingUpEnded, s.growDownEnded, s.growUpEnded],
  error: s.error,
  figures: figuresJson(s.figures),
});

export const gridBotKind: AutomationKind<GridBotState, GridBotAction, GridProfitRecord> = {
  name: 'grid_bot',
  orderIdPrefix: 'g',
  step: (state, input, context) => stepGridBot(state, input as GridBotInput, context),
  watches: gridWatches,
  isRunning: isEnabled,
  pairs: (state) => [state.config.pair, ...usdPairs(state.config.quote)],
  quarantine: (state, reason) => ({ ...state, status: 'disabled', error: reason }),
  toJson: (s) => ({ config: configJson(s.config), lines: s.lines.map(lineJson), ...restJson(s) }),
  changesBetween: (base, next, path, out) => {
    if (base.config !== next.config) diffInto(configJson(base.config), configJson(next.config), [...path, 'config'], out);
    if (base.lines.length !== next.lines.length) out.push([[...path, 'lines'], next.lines.map(lineJson)]);
    else {
      for (let index = 0; index < next.lines.length; index += 1) {
        const line = next.lines[index]!;
        if (base.lines[index] !== line) diffInto(lineJson(base.lines[index]!), lineJson(line), [...path, 'lines', index], out);
      }
    }
    diffInto(restJson(base), restJson(next), path, out);
  },
  fromJson: (raw) => {
    const json = raw as Json;
    const ended = json.ended as [boolean, boolean, boolean];
    const config = configOf(json.config as Json);
    const carry = pairOf(json.carry);
    return {
      config,
      status: json.status as GridBotState['status'],
      lines: (json.lines as LineJson[]).map(lineOf),
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
