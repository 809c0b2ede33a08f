/**
 * Composition of the paper exchange: the venue with its markets and fees, its state in the
 * database, and the price feed PAPER_FEED names. A live feed that cannot reach its exchange at
 * start falls back to the replay of the shipped candles, and says so once.
 */
import type { Logger } from 'pino';
import type { PaperConfig } from './config/config.ts';
import { PaperTrading } from './engine/paper-trading.ts';
import type { ExchangeConnector } from './exchanges/exchange-connector.ts';
import { fixedSlippage } from './exchanges/paper/fill-models.ts';
import { PAPER_MARKETS } from './exchanges/paper/paper-markets.ts';
import { PaperVenue } from './exchanges/paper/paper-venue.ts';
import { LiveFeed } from './market-data/live-feed.ts';
import { ManualFeed } from './market-data/manual-feed.ts';
import { paperReplaySources } from './market-data/paper-replay.ts';
import type { PriceFeed, TickSink } from './market-data/price-feed.ts';
import { ReplayFeed } from './market-data/replay-feed.ts';
import { SyntheticFeed } from './market-data/synthetic-feed.ts';
import { dec } from './shared/decimal.ts';
import type { Database } from './store/database.ts';
import { SqlPaperRepository } from './store/paper.repository.ts';

const LIVE_POLL_MS = 2_000;
const SYNTHETIC_START: Record<string, string> = { USDT_BTC: '60000', USDT_ETH: '3000', BTC_ETH: '0.05', USDT_SOL: '150' };

export function paperTrading(config: PaperConfig, db: Database, connector: ExchangeConnector, logger: Logger, feed?: PriceFeed) {
  const fee = dec(config.fee);
  const venue = new PaperVenue(PAPER_MARKETS, { fees: { maker: fee, taker: fee }, slippage: fixedSlippage(config.slippageBasisPoints) });
  return new PaperTrading(venue, new SqlPaperRepository(db), feed ?? paperFeed(config, connector, logger));
}

function paperFeed(config: PaperConfig, connector: ExchangeConnector, logger: Logger): PriceFeed {
  const onError = (error: unknown) => logger.warn({ err: error }, 'price feed error');
  const replay = () =>
    new ReplayFeed({
      sources: paperReplaySources(marketStep('BTC_ETH')),
      speed: config.replaySpeed,
      shiftTo: new Date(),
      onError,
      onEnd: () => logger.info('the paper market replay reached the end of its data'),
    });
  switch (config.feed) {
    case 'manual':
      return new ManualFeed();
    case 'replay':
      return replay();
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
        replay,
        (error) => logger.warn({ err: error, exchange: config.liveExchange }, 'live prices unreachable; replaying shipped candles instead'),
      );
  }
}

function marketStep(pair: string) {
  return PAPER_MARKETS.find((market) => market.pair === pair)!.rules.priceStep;
}

/** Starts the first feed, or the second when the first cannot start. */
class FallbackFeed implements PriceFeed {
  private active: PriceFeed;

  constructor(
    first: PriceFeed,
    private readonly fallback: () => PriceFeed,
    private readonly onFallback: (error: unknown) => void,
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
      this.onFallback(error);
      this.active = this.fallback();
      await this.active.start(sink);
    }
  }

  stop(): Promise<void> {
    return this.active.stop();
  }
}
