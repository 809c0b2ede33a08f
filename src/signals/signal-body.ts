/**
 * The TradingView custom signal of the reference's legacy format (docs/signals.md):
 * `{"message_type":"bot","bot_id":123,"email_token":"…","delay_seconds":0,"pair":"USDT_BTC"}`
 * starts a deal; `action` may ask instead to close the pair's deals or every deal of the bot at
 * market, or to add funds in quote. Field types are checked by the route's schema; this adds
 * what depends on more than one field.
 */
import { FieldErrorCollector } from '../shared/errors.ts';

export const SIGNAL_ACTIONS = ['close_at_market_price', 'close_at_market_price_all', 'add_funds_in_quote'] as const;
/** A day: an alert is about now, and a signal waiting longer is more likely a mistake. */
export const MAX_DELAY_SECONDS = 86_400;

/** The body as the route's schema lets it through (and as it is stored). */
export interface SignalInput {
  message_type?: string;
  bot_id: number;
  email_token: string;
  delay_seconds?: number;
  pair?: string;
  action?: (typeof SIGNAL_ACTIONS)[number];
  volume?: string;
}

export interface Signal {
  botId: number;
  emailToken: string;
  action: 'start_deal' | (typeof SIGNAL_ACTIONS)[number];
  delaySeconds: number;
  pair: string | undefined;
  /** Quote amount, for add_funds_in_quote. */
  volume: string | undefined;
}

const PAIR = /^[A-Z0-9]{1,20}_[A-Z0-9]{1,20}$/;

export function readSignal(input: SignalInput): Signal {
  const invalid = new FieldErrorCollector();
  if (input.message_type !== undefined && input.message_type !== 'bot') invalid.add('message_type', 'must be "bot"');
  const pair = input.pair === undefined || input.pair === '' ? undefined : input.pair.toUpperCase();
  if (pair !== undefined && !PAIR.test(pair)) invalid.add('pair', 'must look like USDT_BTC (quote_base)');
  if (input.action === 'close_at_market_price' && pair === undefined) invalid.add('pair', 'is missing');
  if (input.action === 'add_funds_in_quote' && (input.volume === undefined || !(Number(input.volume) > 0))) {
    invalid.add('volume', input.volume === undefined ? 'is missing' : 'must be greater than 0');
  }
  invalid.throwIfAny();
  return {
    botId: input.bot_id,
    emailToken: input.email_token,
    action: input.action ?? 'start_deal',
    delaySeconds: input.delay_seconds ?? 0,
    pair,
    volume: input.volume,
  };
}
