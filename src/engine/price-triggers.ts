/**
 * Which automations a price move concerns. Each automation watches a band per pair; a tick wakes
 * only those whose band it leaves, so the cost of a tick grows with the crossings, not with the
 * number of automations. Bounds sit in two heaps per market (highest `below` and lowest `above`
 * on top); replaced bounds are dropped lazily when they surface, and the heaps are compacted when
 * stale entries outnumber live ones.
 */
import type { PriceWatch } from '../domain/automation.ts';
import { type Decimal, toDouble } from '../shared/decimal.ts';
import { Heap } from './heap.ts';

interface Bound {
  /**
   * The bound as the nearest double, compared for speed. Rounding to the nearest never reverses
   * an order, so a crossing is never missed; a tie that rounding creates only wakes an automation
   * that then checks the exact decimal tick and finds nothing to do.
   */
  price: number;
  /** The bound itself, for `mayWake`, which compares without turning each tick into doubles. */
  exact: Decimal;
  automationId: number;
  version: number;
  /** Crossing it only moves the automation's band (`PriceWatch.trailing`). */
  trails: boolean;
}

/** The automations a move wakes: those it may make order, then those it only makes trail. */
export interface Crossed {
  acting: Set<number>;
  trailing: Set<number>;
}

interface Market {
  below: Heap<Bound>;
  above: Heap<Bound>;
}

export class PriceTriggers {
  /** By source, then pair: no key made of the two for each watch set. */
  private readonly markets = new Map<string, Map<string, Market>>();
  private readonly versions = new Map<number, number>();
  private live = 0;

  /** Replaces the automation's watches on `source` (a paper venue or one real account). */
  set(automationId: number, source: string, watches: readonly PriceWatch[]): void {
    const version = (this.versions.get(automationId) ?? 0) + 1;
    this.versions.set(automationId, version);
    for (const watch of watches) {
      const market = this.market(source, watch.pair);
      const trails = watch.trailing;
      if (watch.below !== undefined) market.below.push({ price: toDouble(watch.below), exact: watch.below, automationId, version, trails: trails?.below === true });
      if (watch.above !== undefined) market.above.push({ price: toDouble(watch.above), exact: watch.above, automationId, version, trails: trails?.above === true });
      this.live += Number(watch.below !== undefined) + Number(watch.above !== undefined);
    }
    this.compactIfStale();
  }

  remove(automationId: number): void {
    this.versions.delete(automationId);
  }

  /**
   * False when a move to [low, high] certainly wakes no automation (a look at the heaps' tops,
   * nothing consumed); true may also mean a replaced bound waits on top to be dropped. Exact: the
   * doubles of `crossed` differ from it only between prices no double tells apart (more than 15
   * significant digits), far below any price step.
   */
  mayWake(source: string, pair: string, low: Decimal, high: Decimal): boolean {
    const market = this.markets.get(source)?.get(pair);
    if (!market) return false;
    const below = market.below.peek();
    const above = market.above.peek();
    return (below !== undefined && below.exact.gte(low)) || (above !== undefined && above.exact.lte(high));
  }

  /**
   * The automations whose bands a move to [low, high] leaves (low is the lower of bid and last,
   * high the higher of ask and last), apart by whether a crossed bound may make them order. Their
   * watches are consumed: the engine sets new ones after stepping them.
   */
  crossed(source: string, pair: string, low: Decimal, high: Decimal): Crossed {
    const woken: Crossed = { acting: new Set(), trailing: new Set() };
    const market = this.markets.get(source)?.get(pair);
    if (!market) return woken;
    const lowValue = toDouble(low);
    const highValue = toDouble(high);
    this.drain(market.below, (bound) => bound.price >= lowValue, woken);
    this.drain(market.above, (bound) => bound.price <= highValue, woken);
    for (const id of woken.acting) woken.trailing.delete(id);
    for (const ids of [woken.acting, woken.trailing]) for (const id of ids) this.versions.set(id, (this.versions.get(id) ?? 0) + 1);
    return woken;
  }

  private drain(heap: Heap<Bound>, reached: (bound: Bound) => boolean, woken: Crossed): void {
    for (let top = heap.peek(); top !== undefined && reached(top); top = heap.peek()) {
      heap.pop();
      this.live -= 1;
      if (this.versions.get(top.automationId) === top.version) (top.trails ? woken.trailing : woken.acting).add(top.automationId);
    }
  }

  private market(source: string, pair: string): Market {
    let pairs = this.markets.get(source);
    if (!pairs) this.markets.set(source, (pairs = new Map()));
    let market = pairs.get(pair);
    if (!market) {
      market = {
        below: new Heap<Bound>((a, b) => a.price > b.price),
        above: new Heap<Bound>((a, b) => a.price < b.price),
      };
      pairs.set(pair, market);
    }
    return market;
  }

  private compactIfStale(): void {
    if (this.live < 4096 || this.live < 4 * this.versions.size) return;
    const current = (bound: Bound) => this.versions.get(bound.automationId) === bound.version;
    this.live = 0;
    for (const pairs of this.markets.values()) {
      for (const market of pairs.values()) {
        market.below.filter(current);
        market.above.filter(current);
        this.live += market.below.size + market.above.size;
      }
    }
  }
}
