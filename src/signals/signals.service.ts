/**
 * TradingView custom signals for DCA bots (docs/signals.md). A signal is checked (its bot, its
 * token, what the bot can take), stored, and only then acknowledged; a worker runs stored signals
 * once their delay is over on the engine's clock. A signal's id is derived from its body and the
 * second it arrived, so the same delivery repeated is stored and run once.
 *
 * Exactly once: a signal is claimed (marked running, for a minute on the engine's clock) before
 * its action starts, and its action reaches the bot with the signal's id, which the bot stores
 * with the action's effect. A signal a crash left running is run again once its claim runs out
 * (at once after a restart of the one process using the embedded store): the bot either took
 * no effect, and the action runs, or shows the mark, and the signal is done with no second effect.
 */
import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import { hasStrategy } from '../domain/dca-bot/deal-starts.ts';
import { dcaBotKind } from '../engine/kinds/dca-bot.kind.ts';
import type { Bot } from '../services/dca-bots.service.ts';
import type { DcaEngine } from '../services/deals.service.ts';
import { ApiError, errors } from '../shared/errors.ts';
import { NoPriceYet, type SignalActions } from './signal-actions.ts';
import { readSignal, type Signal, type SignalInput } from './signal-body.ts';

export type SignalStatus = 'pending' | 'running' | 'done' | 'failed';

export interface NewSignal {
  id: string;
  botId: number;
  sender: string;
  body: unknown;
  receivedAt: Date;
  runAt: Date;
}

export interface StoredSignal {
  id: string;
  botId: number;
  body: unknown;
  receivedAt: Date;
  runAt: Date;
  status: SignalStatus;
  outcome: string | null;
}

export interface SignalStore {
  tokens(botIds: readonly number[]): Promise<Map<number, string>>;
  addTokens(tokens: ReadonlyMap<number, string>): Promise<void>;
  /** Undefined when a signal with this id is already stored. */
  insert(signal: NewSignal): Promise<StoredSignal | undefined>;
  get(id: string): Promise<StoredSignal | undefined>;
  /**
   * Claims for `claimant` until `until` the oldest signal due by `now`: pending, or running under a
   * claim that ran out. Undefined when none is due.
   */
  claimDue(now: Date, until: Date, claimant: string): Promise<StoredSignal | undefined>;
  /** Stores the outcome if `claimant` still holds the claim; false when another took it over. */
  finish(id: string, claimant: string, status: 'done' | 'failed', outcome: string, at: Date): Promise<boolean>;
  /** Makes the signal pending again, due at `runAt`, if `claimant` still holds it. */
  postpone(id: string, claimant: string, runAt: Date): Promise<boolean>;
  /** Ends the claims of running signals: their process is gone (a restart of the embedded store's one process). */
  releaseClaims(): Promise<void>;
  logBotEvent(botId: number, message: string, at: Date): Promise<void>;
}

export interface SignalLogger {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
}

/** What the sender is told: the signal's id and state, and its outcome once it ran. */
export interface SignalReceipt {
  signal_id: string;
  status: SignalStatus;
  run_at: string;
  outcome?: string;
}

/** Far longer than an action takes; a claim this old belongs to a process that is gone. */
const CLAIM_MS = 60_000;
/** A signal whose market has no price yet (a server just started) is tried again this often, for this long. */
const PRICE_RETRY_MS = 2000;
const PRICE_WAIT_MS = 60_000;
const CHECK_EVERY_MS = 1000;
/** TradingView gives up after 3 s: an immediate signal's outcome is awaited at most this long. */
const ANSWER_WITHIN_MS = 2000;

export class SignalsService {
  private checking: NodeJS.Timeout | undefined;
  private working: Promise<void> | undefined;
  private again = false;
  private readonly waiting = new Map<string, Array<(signal: StoredSignal) => void>>();
  private readonly claimant = randomUUID();

  /** `exclusive`: no other process runs signals on this store (the embedded one). */
  constructor(
    private readonly store: SignalStore,
    private readonly engine: Pick<DcaEngine, 'get'>,
    private readonly actions: SignalActions,
    private readonly clock: () => Date,
    private readonly logger: SignalLogger,
    private readonly exclusive: boolean,
  ) {}

  /** The bots' email tokens, made on first use (bots created before signals existed have none). */
  async emailTokens(botIds: readonly number[]): Promise<Map<number, string>> {
    const tokens = await this.store.tokens(botIds);
    const missing = new Map(botIds.filter((id) => !tokens.has(id)).map((id) => [id, randomUUID()]));
    if (missing.size === 0) return tokens;
    await this.store.addTokens(missing);
    return this.store.tokens(botIds);
  }

  /**
   * Checks, stores and (when due now) runs a signal. Throws the catalogue's errors: 400 for a body
   * that is not a signal, 404 for an unknown bot, 401 for a wrong token, 422 for what the bot
   * cannot take now (also written to the bot's log).
   */
  async receive(input: SignalInput, sender: string): Promise<SignalReceipt> {
    const signal = readSignal(input);
    const bot = await this.engine.get(dcaBotKind, signal.botId);
    if (!bot) throw errors.dcaBotNotFound();
    const [token] = (await this.emailTokens([bot.id])).values();
    if (!sameSecret(token!, signal.emailToken)) {
      this.logger.warn({ botId: bot.id, sender }, 'TradingView signal with a wrong email_token');
      throw errors.signalTokenInvalid();
    }
    const receivedAt = this.clock();
    const refusal = refusalOf(bot, signal);
    if (refusal) {
      await this.store.logBotEvent(bot.id, `TradingView signal refused: ${describe(refusal)}`, receivedAt);
      throw refusal;
    }
    const id = createHash('sha256').update(`${Math.floor(receivedAt.getTime() / 1000)}\n${JSON.stringify(input)}`).digest('hex').slice(0, 32);
    const runAt = new Date(receivedAt.getTime() + signal.delaySeconds * 1000);
    const stored = await this.store.insert({ id, botId: bot.id, sender, body: input, receivedAt, runAt });
    if (!stored) return receipt((await this.store.get(id))!);
    this.logger.info({ botId: bot.id, signalId: id, action: signal.action, runAt }, 'TradingView signal stored');
    if (signal.delaySeconds > 0) return receipt(stored);
    const ran = this.outcome(id);
    this.runDue();
    const outcome = await ran;
    if (outcome?.status === 'failed') throw errors.unprocessable(outcome.outcome ?? 'The signal failed');
    return receipt(outcome ?? stored);
  }

  /** Runs what is due (signals a crash left running included), then checks every second. */
  async start(): Promise<void> {
    if (this.exclusive) await this.store.releaseClaims();
    this.checking = setInterval(() => this.runDue(), CHECK_EVERY_MS);
    this.checking.unref();
    await this.runDue();
  }

  async stop(): Promise<void> {
    clearInterval(this.checking);
    await this.working;
  }

  /** Runs every signal due now; resolves when none is left (also for a call made meanwhile). */
  runDue(): Promise<void> {
    if (this.working) {
      this.again = true;
      return this.working;
    }
    this.working = this.work().finally(() => (this.working = undefined));
    return this.working;
  }

  private async work(): Promise<void> {
    do {
      this.again = false;
      try {
        // One at a time, each claimed just before it runs, so that no claim waits out others' actions.
        for (let due = await this.claim(); due !== undefined; due = await this.claim()) await this.run(due);
      } catch (error) {
        this.logger.error({ err: error }, 'TradingView signals could not be run');
      }
    } while (this.again);
  }

  private claim(): Promise<StoredSignal | undefined> {
    const now = this.clock();
    return this.store.claimDue(now, new Date(now.getTime() + CLAIM_MS), this.claimant);
  }

  private async run(stored: StoredSignal): Promise<void> {
    this.logger.info({ botId: stored.botId, signalId: stored.id }, 'TradingView signal running');
    let status: 'done' | 'failed' = 'done';
    let outcome: string;
    try {
      const signal = readSignal(stored.body as SignalInput);
      const bot = await this.engine.get(dcaBotKind, stored.botId);
      if (!bot) throw errors.dcaBotNotFound();
      const doneBefore = this.actions.doneBefore(bot, signal, stored.id);
      const refusal = doneBefore === undefined ? refusalOf(bot, signal) : undefined;
      if (refusal) throw refusal;
      outcome = doneBefore ?? (await this.actions.run(bot, signal, stored.id));
    } catch (error) {
      if (error instanceof NoPriceYet && (await this.waitForPrice(stored))) return;
      if (!(error instanceof ApiError)) this.logger.error({ err: error, signalId: stored.id }, 'TradingView signal failed');
      status = 'failed';
      outcome = describe(error);
    }
    await this.finish(stored, status, outcome);
  }

  /** Puts the signal back to wait for a price, up to a minute after it was due; false past that. */
  private async waitForPrice(stored: StoredSignal): Promise<boolean> {
    const dueAt = stored.receivedAt.getTime() + readSignal(stored.body as SignalInput).delaySeconds * 1000;
    const now = this.clock().getTime();
    if (now >= dueAt + PRICE_WAIT_MS) return false;
    this.logger.info({ botId: stored.botId, signalId: stored.id }, 'TradingView signal waits for a price');
    return this.store.postpone(stored.id, this.claimant, new Date(now + PRICE_RETRY_MS));
  }

  private async finish(signal: StoredSignal, status: 'done' | 'failed', outcome: string): Promise<void> {
    const at = this.clock();
    if (!(await this.store.finish(signal.id, this.claimant, status, outcome, at))) {
      this.logger.warn({ signalId: signal.id }, 'TradingView signal taken over by another server before its outcome was stored');
      return;
    }
    await this.store.logBotEvent(signal.botId, `TradingView signal ${status === 'done' ? 'done' : 'failed'}: ${outcome}`, at).catch(() => undefined);
    const finished = { ...signal, status, outcome };
    for (const resolve of this.waiting.get(signal.id) ?? []) resolve(finished);
    this.waiting.delete(signal.id);
  }

  /** The signal once it ran, or undefined if that takes longer than TradingView waits. */
  private outcome(id: string): Promise<StoredSignal | undefined> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(undefined), ANSWER_WITHIN_MS);
      const waiters = this.waiting.get(id) ?? [];
      waiters.push((signal) => {
        clearTimeout(timer);
        resolve(signal);
      });
      this.waiting.set(id, waiters);
    });
  }
}

/** Why the bot cannot take this signal as it is now, or undefined. */
function refusalOf(bot: Bot, signal: Signal): ApiError | undefined {
  const { config } = bot.state;
  if (!hasStrategy(bot.state, 'tv_custom_signal')) return errors.unprocessable('The bot does not take TradingView signals: add {"strategy":"tv_custom_signal"} to its strategy_list');
  if (signal.pair !== undefined && !config.pairs.includes(signal.pair)) return errors.unprocessable(`${signal.pair} is not one of the bot's pairs`);
  if (signal.action === 'start_deal') {
    if (!bot.state.enabled) return errors.unprocessable('The bot is disabled');
    if (signal.pair === undefined && config.pairs.length > 1) return errors.recordInvalid({ pair: ['is missing: the bot trades several pairs'] });
  }
  return undefined;
}

function receipt(signal: StoredSignal): SignalReceipt {
  return {
    signal_id: signal.id,
    status: signal.status,
    run_at: signal.runAt.toISOString(),
    ...(signal.outcome === null ? {} : { outcome: signal.outcome }),
  };
}

function describe(error: unknown): string {
  if (error instanceof ApiError) {
    const fields = Object.entries(error.attributes ?? {}).map(([field, messages]) => `${field} ${messages.join(', ')}`);
    return fields.length > 0 ? fields.join('; ') : (error.description ?? error.code);
  }
  return 'an internal error; the server log has the details';
}

/** Compared as hashes, so neither the length nor the content of the token leaks through timing. */
function sameSecret(expected: string, given: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(expected.toLowerCase()), digest(given.trim().toLowerCase()));
}
