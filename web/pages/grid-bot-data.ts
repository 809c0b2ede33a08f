/**
 * Everything the grid bot page shows, kept between polls so that a refresh asks only for what
 * may have changed: the bot itself every time, its candles from the last one on, and its orders,
 * profits and events only when the bot's volumes, lines or status moved.
 */
import type { ApiClient } from '../api/client.ts';
import type { BotEvent, Candle, CurrencyRates, GridBot, GridMarketOrders, GridProfit, MarketOrder, RequiredBalances } from '../api/types.ts';
import { CandleCache, currencyRates, marketCodeOf } from '../lib/candles.ts';
import { type Section, settle } from '../lib/settle.ts';

const ORDER_PAGE = 1000;
const EVENT_PAGE = 100;

export interface GridBotData {
  bot: GridBot;
  marketCode: string;
  rates: CurrencyRates | undefined;
  candles: Candle[];
  /** Every grid line order, newest first. */
  orders: MarketOrder[];
  balancingOrders: MarketOrder[];
  profits: GridProfit[];
  /** The latest events, newest first. */
  events: BotEvent[];
  /** Undefined while the bot is disabled. */
  required: Section<RequiredBalances> | undefined;
}

export class GridBotFeed {
  private last: GridBotData | undefined;
  private version = '';
  private readonly candleCache = new CandleCache();
  private eventPages = 1;

  constructor(
    private readonly client: ApiClient,
    private readonly id: number,
  ) {}

  async load(interval: string, signal: AbortSignal): Promise<GridBotData> {
    const bot = await this.client.get<GridBot>(`/ver1/grid_bots/${this.id}`, { signal });
    const version = botVersion(bot);
    const changed = version !== this.version || !this.last;
    const marketCode = await marketCodeOf(this.client, bot.account_id);
    const [rates, candles] = await Promise.all([
      this.last?.rates ?? currencyRates(marketCode, bot.pair, signal),
      this.candleCache.load(marketCode, bot.pair, interval, signal),
    ]);
    let data: GridBotData;
    if (changed) {
      const [orders, profits, events, required] = await Promise.all([
        this.orders(signal),
        this.client.get<GridProfit[]>(`/ver1/grid_bots/${this.id}/profits`, { signal }),
        this.events(signal),
        this.required(bot, signal),
      ]);
      data = { bot, marketCode, rates, candles, orders: orders.grid_lines_orders, balancingOrders: orders.balancing_orders, profits, events, required };
    } else {
      data = { ...this.last!, bot, marketCode, rates, candles };
    }
    this.last = data;
    this.version = version;
    return data;
  }

  /** A disabled bot's lines have no sides, and the API has no required balances for it. */
  private async required(bot: GridBot, signal: AbortSignal): Promise<Section<RequiredBalances> | undefined> {
    if (!bot.is_enabled) return undefined;
    return settle(this.client.get<RequiredBalances>(`/ver1/grid_bots/${this.id}/required_balances`, { signal }), signal);
  }

  private async orders(signal: AbortSignal): Promise<GridMarketOrders> {
    const all: GridMarketOrders = { grid_lines_orders: [], balancing_orders: [] };
    for (let offset = 0; ; offset += ORDER_PAGE) {
      const page = await this.client.get<GridMarketOrders>(`/ver1/grid_bots/${this.id}/market_orders`, {
        query: { limit: ORDER_PAGE, offset },
        signal,
      });
      all.grid_lines_orders.push(...page.grid_lines_orders);
      all.balancing_orders.push(...page.balancing_orders);
      if (page.grid_lines_orders.length < ORDER_PAGE && page.balancing_orders.length < ORDER_PAGE) return all;
    }
  }

  /**
   * The last page of events, found from where it was last time: events are listed oldest first,
   * so the page count is searched by doubling, then halving.
   */
  private async events(signal: AbortSignal): Promise<BotEvent[]> {
    const page = (number: number) =>
      this.client.get<BotEvent[]>(`/ver1/grid_bots/${this.id}/events`, { query: { page: number, per_page: EVENT_PAGE }, signal });
    let low = this.eventPages;
    let lowPage = await page(low);
    while (lowPage.length === 0 && low > 1) {
      low = Math.max(1, Math.floor(low / 2));
      lowPage = await page(low);
    }
    if (lowPage.length === EVENT_PAGE) {
      // low is full; find a page past the end, then the last page with events between them.
      let high = low * 2;
      let highPage = await page(high);
      while (highPage.length === EVENT_PAGE) {
        low = high;
        lowPage = highPage;
        high *= 2;
        highPage = await page(high);
      }
      if (highPage.length > 0) {
        low = high;
        lowPage = highPage;
      } else {
        while (high - low > 1) {
          const middle = Math.floor((low + high) / 2);
          const middlePage = await page(middle);
          if (middlePage.length > 0) {
            low = middle;
            lowPage = middlePage;
            if (middlePage.length < EVENT_PAGE) break;
          } else {
            high = middle;
          }
        }
      }
    }
    const previous = low > 1 && lowPage.length < EVENT_PAGE ? await page(low - 1) : [];
    this.eventPages = low;
    return [...previous, ...lowPage].reverse();
  }
}

/** Changes whenever a fill, a line or a setting changes what the page shows. */
function botVersion(bot: GridBot): string {
  return [
    bot.status,
    bot.is_enabled,
    bot.total_profits_count,
    bot.current_profit,
    bot.bought_volume,
    bot.sold_volume,
    bot.upper_price,
    bot.lower_price,
    bot.grids_quantity,
    bot.quantity_per_grid,
    bot.note,
    bot.grid_lines.map((line) => `${line.price}${line.side}${line.order_placed}`).join(','),
  ].join('|');
}
