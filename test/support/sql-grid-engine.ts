/**
 * An engine and the paper exchange storing into one SQL database, with a grid bot of 40 lines on
 * a paper account, moved by ticks one second apart: for tests of what is stored and read back
 * across batches and restarts.
 */
import assert from 'node:assert/strict';
import { buildGridConfig } from '../../src/domain/grid-bot/config-validation.ts';
import { newGridBot } from '../../src/domain/grid-bot/grid-bot-state.ts';
import { parsePair } from '../../src/domain/market/pair.ts';
import type { Engine } from '../../src/engine/engine.ts';
import { gridBotKind } from '../../src/engine/kinds/grid-bot.kind.ts';
import type { PaperTrading } from '../../src/engine/paper-trading.ts';
import { PAPER_MARKETS } from '../../src/exchanges/paper/paper-markets.ts';
import { dec, ZERO } from '../../src/shared/decimal.ts';
import type { Database } from '../../src/store/database.ts';
import { SqlEngineRepository } from '../../src/store/engine.repository.ts';
import { gridProfitsLogged } from '../../src/store/grid-bots.repository.ts';
import { SqlPaperRepository } from '../../src/store/paper.repository.ts';
import { startPaperAndEngine } from './paper-and-engine.ts';

const FEE_RATE = dec('0.001');
const at = (second: number) => new Date(Date.UTC(2024, 0, 1) + second * 1000);

export interface SqlGridProcess {
  paper: PaperTrading;
  engine: Engine;
}

export class SqlGridScenario {
  private second = 0;
  readonly clock = () => at(this.second);

  constructor(private readonly db: Database) {}

  /** A process as a server runs one: its engine stores the paper exchange's changes in its batches. */
  async start(store: SqlEngineRepository = new SqlEngineRepository(this.db)): Promise<SqlGridProcess> {
    return startPaperAndEngine(new SqlPaperRepository(this.db), {
      store,
      clock: this.clock,
      logger: { warn: () => {}, error: (object) => assert.fail(JSON.stringify(object)) },
      kinds: [gridBotKind],
      writers: { [gridBotKind.name]: gridProfitsLogged },
    });
  }

  async stop(process: SqlGridProcess): Promise<void> {
    await process.engine.stop();
    await process.paper.stop();
  }

  /** The next tick on USDT_BTC, a second after the last, handled with all it caused. */
  async move(process: SqlGridProcess, price: number): Promise<void> {
    this.second += 1;
    await process.paper.applyTicks([{ pair: 'USDT_BTC', price: dec(price), at: at(this.second) }]);
    await process.engine.settled();
  }

  /** A paper account with 100,000 USDT and 2 BTC, and a running grid bot of 40 lines from 50,000 to 70,000 on it, started at 60,000. */
  async gridBot(process: SqlGridProcess): Promise<{ accountId: number; botId: number }> {
    const [user] = await this.db.query<{ id: number }>("INSERT INTO users (name) VALUES ('grid') RETURNING id");
    const [account] = await this.db.query<{ id: number }>(
      "INSERT INTO accounts (user_id, name, market_code) VALUES ($1, 'paper', 'paper_trading') RETURNING id",
      [user!.id],
    );
    const accountId = Number(account!.id);
    await process.paper.openAccount(accountId, [
      { currency: 'USDT', free: dec('100000'), locked: ZERO },
      { currency: 'BTC', free: dec('2'), locked: ZERO },
    ]);
    await this.move(process, 60000);
    const market = PAPER_MARKETS.find((m) => m.pair === 'USDT_BTC')!;
    const config = buildGridConfig(
      { pair: 'USDT_BTC', lower_price: '50000', upper_price: '70000', grids_quantity: 40, quantity_per_grid: '200', order_currency_type: 'quote' },
      parsePair('USDT_BTC')!,
      market.rules,
      FEE_RATE,
    );
    assert.ok(config.ok);
    const bot = await process.engine.create(
      gridBotKind,
      { userId: user!.id, accountId, state: newGridBot(config.config, market.rules.priceStep) },
      { type: 'start', funds: { base: dec('2'), quote: dec('100000') }, feeRate: FEE_RATE },
    );
    return { accountId, botId: bot.id };
  }
}
