/** The grid bot's event log lines, worded like the reference's ("Creating LIMIT BUY order, ..."). */
import type { LogEvent, Side } from '../automation.ts';
import type { Decimal } from '../../shared/decimal.ts';
import type { GridBotConfig } from './grid-bot-config.ts';
import { decimalText } from './grid-lines.ts';

type Pair = Pick<GridBotConfig, 'base' | 'quote'>;

const quoteText = (pair: Pair, value: Decimal) => `${decimalText(value)} ${pair.quote}`;
const sizeText = (pair: Pair, price: Decimal, amount: Decimal) =>
  `${quoteText(pair, price.times(amount))} (${decimalText(amount)} ${pair.base})`;
const upper = (side: Side) => side.toUpperCase();

export const gridMessages = {
  startReceived: () => 'Start command received',
  stopReceived: () => 'Stop command received',
  turnedOn: () => 'Bot is turned on',
  turnedOff: () => 'Bot is turned off',
  settingsUpdated: () => 'Bot settings updated, the grid is placed again',
  noPrice: (pair: string) => `No price for ${pair} yet, the bot cannot start`,
  balancingCreated: (pair: Pair, price: Decimal, amount: Decimal) =>
    `Creating balancing order, Price: ${quoteText(pair, price)}, Size: ${sizeText(pair, price, amount)}.`,
  balancingFilled: (pair: Pair, price: Decimal, amount: Decimal) =>
    `Balancing order filled, Price: ${quoteText(pair, price)}, Size: ${sizeText(pair, price, amount)}.`,
  balancingFailed: (reason: string) => `Balancing order failed: ${reason}`,
  limitCreated: (pair: Pair, side: Side, price: Decimal, amount: Decimal, current: Decimal | undefined) =>
    `Creating LIMIT ${upper(side)} order, Price: ${quoteText(pair, price)}, Size: ${sizeText(pair, price, amount)}` +
    (current === undefined ? '.' : `, Current price: ${quoteText(pair, current)}.`),
  limitCancelled: (pair: Pair, side: Side, price: Decimal, amount: Decimal) =>
    `Cancelling LIMIT ${upper(side)} order, Price: ${quoteText(pair, price)}, Size: ${sizeText(pair, price, amount)}.`,
  limitFilled: (pair: Pair, side: Side, price: Decimal, amount: Decimal, profit: Decimal | null) =>
    `LIMIT ${upper(side)} order filled, Price: ${quoteText(pair, price)}, Size: ${sizeText(pair, price, amount)}` +
    (profit === null ? '.' : `, Profit: ${quoteText(pair, profit)}.`),
  limitRefused: (pair: Pair, side: Side, price: Decimal, reason: string) =>
    `LIMIT ${upper(side)} order at ${quoteText(pair, price)} was not placed: ${reason}`,
  cannotTrade: () => 'The exchange refused every order of the bot: it cannot trade and is turned off',
  lateFill: (pair: Pair, side: Side, price: Decimal, amount: Decimal) =>
    `${upper(side)} order filled after the bot gave it up, Price: ${quoteText(pair, price)}, Size: ${sizeText(pair, price, amount)}.`,
  ordersCancelled: (count: number) => `Cancelling ${count} open order${count === 1 ? '' : 's'}`,
  stopLossTriggered: (pair: Pair, which: 'Upper' | 'Lower', stopPrice: Decimal, current: Decimal) =>
    `${which} stop loss triggered, Stop price: ${quoteText(pair, stopPrice)}, Current price: ${quoteText(pair, current)}.`,
  marketCreated: (pair: Pair, side: Side, amount: Decimal, current: Decimal) =>
    `Creating MARKET ${upper(side)} order, Size: ${sizeText(pair, current, amount)}, Current price: ${quoteText(pair, current)}.`,
  marketSkipped: (side: Side, reason: string) => `MARKET ${upper(side)} order not created: ${reason}`,
  stopOrderFilled: (pair: Pair, side: Side, price: Decimal, amount: Decimal) =>
    `MARKET ${upper(side)} order filled, Price: ${quoteText(pair, price)}, Size: ${sizeText(pair, price, amount)}.`,
  stopOrderFailed: (reason: string) => `Stop loss order failed: ${reason}`,
  trailedUp: (pair: Pair, lowest: Decimal, highest: Decimal) =>
    `Trailing up: the grid moved to ${quoteText(pair, lowest)} - ${quoteText(pair, highest)}.`,
  grew: (pair: Pair, direction: 'down' | 'up', price: Decimal) =>
    `Grid expanded ${direction}: new ${direction === 'down' ? 'buy' : 'sell'} line at ${quoteText(pair, price)}.`,
  growthEnded: (what: string, reason: string) => `${what} stopped: ${reason}`,
  lowerStopLossMoved: (pair: Pair, price: Decimal) => `Lower stop loss moved to ${quoteText(pair, price)}.`,
};

export const logEvent = (message: string, at: Date): LogEvent => ({ message, at });
