/**
 * TradingView custom signals for DCA bots (docs/signals.md). A signal is checked (its bot, its
 * token, what the bot can take), stored, and only then acknowledged; a worker runs stored signals
 * once their delay is over on the engine's clock. A signal's id is derived from its body and the
 * second it arrived, so the same delivery repeated is stored and run once.
 *
 * Invariant: a signal is marked running before its action starts. After a crash, one left running
 * is marked failed, not repeated: an action is never run twice, at the price of losing one caught
 * in the instant between being taken and its outcome being stored.
 */
import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import { hasStrategy } from '../domain/dca-bot/deal-starts.ts';
import { dcaBotKind } from '../engine/kinds/dca-bot.kind.ts';
import type { Bot } from '../services/dca-bots.service.ts';
import type { DcaEngine } from '../services/deals.service.ts';
import { ApiError, errors } from '../shared/errors.ts';
import type { SignalActions } from './signal-actions.ts';
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
  /** Marks up to `limit` pending signals due by `now` as running and answers them, oldest first. */
  claimDue(now: Date, limit: number): Promise<StoredSignal[]>;
  finish(id: string, status: 'done' | 'failed', outcome: string, at: Date): Promise<void>;
  running(): Promise<StoredSignal[]>;
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

const CLAIM_BATCH = 50;
const CHECK_EVERY_MS = 1000;
/** TradingView gives up after 3 s: an immediate signal's outcome is awaited at most this long. */
const ANSWER_WITHIN_MS = 2000;

export class SignalsService {
  private checking: NodeJS.Timeout | undefined;
  private working: Promise<void> | undefined;
  private again = false;
  private readonly waiting = new Map<string, Array<(signal: StoredSignal) => void>>();

  constructor(
    private readonly store: SignalStore,
    private readonly engine: Pick<DcaEngine, 'get'>,
    private readonly actions: SignalActions,
    private readonly clock: () => Date,
    private readonly logger: SignalLogger,
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

  /** Settles signals a crash left running, then checks for due signals every second. */
  async start(): Promise<void> {
    for (const signal of await this.store.running()) {
      await this.finish(signal, 'failed', 'interrupted by a restart before its outcome was stored; not repeated');
    }
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
        for (let due = await this.store.claimDue(this.clock(), CLAIM_BATCH); due.length > 0; due = await this.store.claimDue(this.clock(), CLAIM_BATCH)) {
          for (const signal of due) await this.run(signal);
        }
      } catch (error) {
        this.logger.error({ err: error }, 'TradingView signals could not be run');
      }
    } while (this.again);
  }

  private async run(stored: StoredSignal): Promise<void> {
    try {
      const signal = readSignal(stored.body as SignalInput);
      const bot = await this.engine.get(dcaBotKind, stored.botId);
      if (!bot) throw errors.dcaBotNotFound();
      const refusal = refusalOf(bot, signal);
      if (refusal) throw refusal;
      await this.finish(stored, 'done', await this.actions.run(bot, signal));
    } catch (error) {
      if (!(error instanceof ApiError)) this.logger.error({ err: error, signalId: stored.id }, 'TradingView signal failed');
      await this.finish(stored, 'failed', describe(error));
    }
  }

  private async finish(signal: StoredSignal, status: 'done' | 'failed', outcome: string): Promise<void> {
    const at = this.clock();
    await this.store.finish(signal.id, status, outcome, at);
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
