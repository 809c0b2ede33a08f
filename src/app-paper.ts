/**
 * Composition of the paper exchange: the venue with its markets and fees, its state in the
 * database, and the price feed PAPER_FEED names. A live feed that cannot reach its exchange at
 * start falls back to the replay of the shipped candles, and says so in one line. Replayed prices
 * are dated by the wall clock, and the replay continues where the last run stopped.
 */
import type { Logger } from 'pino';
import type { PaperConfig } from './config/config.ts';
import { type PaperOwnership, PaperTrading } from './engine/paper-trading.ts';
import type { ExchangeConnector } from './exchanges/exchange-connector.ts';
import { fixedSlippage } from './exchanges/paper/fill-models.ts';
import { PAPER_MARKETS } from './exchanges/paper/paper-markets.ts';
import { PaperVenue } from './exchanges/paper/paper-venue.ts';
import type { CandleBook } from './market-data/candle-book.ts';
import { LiveFeed } from './market-data/live-feed.ts';
import { ManualFeed } from './market-data/manual-feed.ts';
import { defaultReplayStart, paperReplaySources } from './market-data/paper-replay.ts';
import type { PriceFeed, TickSink } from './market-data/price-feed.ts';
import { ResumingReplay } from './market-data/resuming-replay.ts';
import { SyntheticFeed } from './market-data/synthetic-feed.ts';
import { dec } from './shared/decimal.ts';
import type { Database } from './store/database.ts';
import { type PaperFence, SqlPaperRepository } from './store/paper.repository.ts';
import { SqlReplayPositions } from './store/replay-positions.repository.ts';

const LIVE_POLL_MS = 2_000;
const SYNTHETIC_START: Record<string, string> = { USDT_BTC: '60000', USDT_ETH: '3000', BTC_ETH: '0.05', USDT_SOL: '150' };

export function paperTrading(
  config: PaperConfig,
  db: Database,
  connector: ExchangeConnector,
  logger: Logger,
  candles: CandleBook,
  feed?: PriceFeed,
  shared?: { ownership: PaperOwnership; fence: PaperFence },
) {
  const fee = dec(config.fee);
  const venue = new PaperVenue(PAPER_MARKETS, { fees: { maker: fee, taker: fee }, slippage: fixedSlippage(config.slippageBasisPoints) });
  venue.onTicker((ticker) => candles.record(ticker.pair, ticker.last, ticker.at));
  return new PaperTrading(venue, new SqlPaperRepository(db, shared?.fence), feed ?? paperFeed(config, connector, db, logger), shared?.ownership, logger);
}

function paperFeed(config: PaperConfig, connector: ExchangeConnector, db: Database, logger: Logger): PriceFeed {
  const onError = (error: unknown) => logger.warn({ err: error }, 'price feed error');
  const replay = (why: string) =>
    new ResumingReplay({
      sources: (from) => paperReplaySources(marketStep('BTC_ETH'), from),
      speed: config.replaySpeed,
      from: config.replayFrom ?? defaultReplayStart(),
      positions: new SqlReplayPositions(db),
      now: () => new Date(),
      saveEveryMs: 1_000,
      onStart: (from, resumed) =>
        logger.info(
          `paper prices: ${why}replaying the shipped candles ${resumed ? 'from where the last run stopped, ' : ''}` +
            `${from.toISOString().slice(0, 10)} onwards at ${config.replaySpeed === 0 ? 'full speed' : `${config.replaySpeed}x`}, dated now`,
        ),
      onError,
      onEnd: () => logger.info('the paper market replay reached the end of its data; prices stay where they are'),
    });
  switch (config.feed) {
    case 'manual':
      return new ManualFeed();
    case 'replay':
      return replay('');
    case 'synthetic':
      return new SyntheticFeed({
        pairs: PAPER_MARKETS.map((m) => ({ pair: m.pair, startPrice: dec(SYNTHETIC_START[m.pair] ?? '100'), priceStep: m.rules.priceStep })),
        seed: 1,
        intervalMs: 1_000,
        startAt: new Date(),
        onError,
      });
    case 'live':
      return new FallbackFeed(
        new LiveFeed({
          pairs: PAPER_MARKETS.map((m) => m.pair),
          fetchTickers: (pairs) => connector.tickers(config.liveExchange, pairs),
          intervalMs: LIVE_POLL_MS,
          onError,
        }),
        (error) => replay(`live prices from ${config.liveExchange} are unreachable (${firstLine(error)}); `),
      );
  }
}

function marketStep(pair: string) {
  return PAPER_MARKETS.find((market) => market.pair === pair)!.rules.priceStep;
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0]!.slice(0, 160);
}

/** Starts the first feed, or the second when the first cannot start. */
class FallbackFeed implements PriceFeed {
  private active: PriceFeed;

  constructor(
    first: PriceFeed,
    private readonly fallback: (error: unknown) => PriceFeed,
  ) {
    this.active = first;
  }

  get kind(): PriceFeed['kind'] {
    return this.active.kind;
  }

  async start(sink: TickSink): Promise<void> {
    try {
      await this.active.start(sink);
    } catch (error) {
      this.active = this.fallback(error);
      await this.active.start(sink);
    }
  }

  stop(): Promise<void> {
    return this.active.stop();
  }
}
