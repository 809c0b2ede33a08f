/**
 * Commands between servers sharing PostgreSQL (docs/scaling.md): the forwarder stores an action
 * on an account this process cannot run and waits for the answer; the runner, in every process
 * that runs an engine, claims the commands of the accounts it holds (or takes, when nobody holds
 * them) and replays them through its own API, so they are checked and answered exactly as a call
 * made to it. Both wait on NOTIFY and read the table besides, so a missed notification only delays.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Logger } from 'pino';
import type { AccountLeases } from './engine/account-leases.ts';
import { type CommandAnswer, type CommandForwarder, COMMAND_HEADER, ELSEWHERE_HEADER, type ForwardedRequest } from './services/engine-commands.ts';
import { ANSWERS_CHANNEL, COMMANDS_CHANNEL, SqlCommandStore } from './store/commands.repository.ts';
import type { Database } from './store/database.ts';
import { errors } from './shared/errors.ts';
import { RerunningPass } from './shared/rerunning-pass.ts';

/** How often a waiting server and an idle runner read the table when no notification came. */
const POLL_MS = 500;
/** Answered commands are kept this long. */
const KEEP_ANSWERED_MS = 3_600_000;
const ANSWER_HEADERS = ['content-type', 'retry-after', ELSEWHERE_HEADER];

export type Replay = (request: ForwardedRequest & { headers: Record<string, string> }) => Promise<CommandAnswer>;

export interface EngineCommands extends CommandForwarder {
  /** Starts running the commands of this engine's accounts through `replay` (its own API). */
  serveWith(replay: Replay): Promise<void>;
  /** Stops running commands (before the engine hands its accounts back). */
  stopServing(): Promise<void>;
  close(): Promise<void>;
}

export interface CommandPorts {
  db: Database;
  leaseMs: number;
  logger: Logger;
  /** Absent for a process that runs no engine (role api). */
  engine?: { engineId: string; leases: AccountLeases; takeAccount(accountId: number): Promise<boolean> };
}

export function engineCommands(ports: CommandPorts): EngineCommands {
  const store = new SqlCommandStore(ports.db);
  const token = randomBytes(24).toString('hex');
  const waiters = new Map<number, () => void>();
  let answers: Promise<() => Promise<void>> | undefined;
  let runner: CommandRunner | undefined;

  const listenForAnswers = () =>
    (answers ??= ports.db.listen!(ANSWERS_CHANNEL, {
      onNotify: (payload) => waiters.get(Number(payload))?.(),
      onResumed: () => {
        for (const wake of waiters.values()) wake();
      },
    }));
  const pause = (id: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, POLL_MS);
      function done() {
        clearTimeout(timer);
        waiters.delete(id);
        resolve();
      }
      waiters.set(id, done);
    });
  // A claimer that dies never answers; a command nobody claims within two leases finds no engine.
  const unclaimedLimitMs = 2 * ports.leaseMs + 5_000;

  return {
    isCommand: (headers) => {
      const value = headers[COMMAND_HEADER];
      return typeof value === 'string' && value.length === token.length && timingSafeEqual(Buffer.from(value), Buffer.from(token));
    },
    forward: async (accountId, request) => {
      if ((await store.liveEngines(ports.leaseMs)) === 0) return undefined;
      await listenForAnswers();
      const id = await store.insert(accountId, request);
      const since = performance.now();
      for (;;) {
        await pause(id);
        const state = await store.state(id);
        if (!state) return undefined;
        if (state.answer) return state.answer;
        const unavailable = errors.accountRunElsewhere();
        if (state.orphaned) {
          if (await store.abandon(id, answerOf(unavailable.status, unavailable.headers, unavailable.toBody()))) return undefined;
        } else if (!state.claimed && performance.now() - since > unclaimedLimitMs && (await store.withdraw(id))) {
          return undefined;
        }
      }
    },
    serveWith: async (replay) => {
      if (!ports.engine || runner) return;
      runner = new CommandRunner(store, ports.engine, (request) => replay({ ...request, headers: { ...request.headers, [COMMAND_HEADER]: token } }), ports.logger);
      await runner.start(ports.db);
    },
    stopServing: async () => {
      await runner?.stop();
    },
    close: async () => {
      await runner?.stop();
      if (answers) await (await answers)();
    },
  };
}

function answerOf(status: number, headers: Record<string, string>, body: unknown): CommandAnswer {
  return { status, headers: { 'content-type': 'application/json; charset=utf-8', ...headers }, body: JSON.stringify(body) };
}

/** Picks the headers of a replayed answer that the waiting server passes on. */
export function answerHeaders(headers: Record<string, unknown>): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const name of ANSWER_HEADERS) {
    const value = headers[name];
    if (value !== undefined) kept[name] = String(value);
  }
  return kept;
}

class CommandRunner {
  private timer: NodeJS.Timeout | undefined;
  private unlisten: (() => Promise<void>) | undefined;
  private readonly passes = new RerunningPass(
    () => this.pass(),
    (error) => this.logger.warn({ err: error }, 'running stored commands failed; tried again shortly'),
  );
  private lastPrune = 0;

  constructor(
    private readonly store: SqlCommandStore,
    private readonly engine: NonNullable<CommandPorts['engine']>,
    private readonly replay: (request: ForwardedRequest) => Promise<CommandAnswer>,
    private readonly logger: Logger,
  ) {}

  async start(db: Database): Promise<void> {
    this.unlisten = await db.listen!(COMMANDS_CHANNEL, { onNotify: () => this.poke(), onResumed: () => this.poke() });
    this.timer = setInterval(() => this.poke(), POLL_MS);
    this.timer.unref();
    this.poke();
  }

  async stop(): Promise<void> {
    const passes = this.passes.stop();
    clearInterval(this.timer);
    await this.unlisten?.();
    this.unlisten = undefined;
    await passes;
  }

  private poke(): void {
    this.passes.poke();
  }

  private async pass(): Promise<void> {
    const { engineId, leases } = this.engine;
    for (const command of await this.store.waiting()) {
      if (this.passes.stopped) return;
      if (!leases.owns(command.accountId)) {
        if (command.live && command.holder !== engineId) continue;
        if (!(await this.engine.takeAccount(command.accountId))) continue;
      }
      const epoch = leases.epochs().get(command.accountId);
      if (epoch === undefined || !(await this.store.claim(command.id, engineId, epoch))) continue;
      const answer = await this.replay(command.request).catch((error: unknown) => {
        this.logger.error({ err: error, commandId: command.id }, 'a stored command failed');
        const unknown = errors.unknown();
        return answerOf(unknown.status, unknown.headers, unknown.toBody());
      });
      if (answer.headers[ELSEWHERE_HEADER] !== undefined) await this.store.release(command.id, engineId);
      else await this.store.answer(command.id, engineId, answer);
    }
    if (performance.now() - this.lastPrune > 60_000) {
      this.lastPrune = performance.now();
      await this.store.prune(KEEP_ANSWERED_MS);
    }
  }
}
