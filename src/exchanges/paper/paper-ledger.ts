/** Free and locked balances of one paper account. Locked funds back resting orders. */
import { type Decimal, ZERO } from '../../shared/decimal.ts';
import { type Balance, ExchangeError } from '../exchange.ts';

interface Holding {
  free: Decimal;
  locked: Decimal;
}

export class PaperLedger {
  private readonly holdings = new Map<string, Holding>();
  /** The currencies in the order `balances` lists them, sorted again only when one is added. */
  private currencies: string[] | null = null;
  /** Whether a balance moved since `takeMoved` last ran: only then are the balances stored again. */
  private moved = false;

  constructor(initial: readonly Balance[] = []) {
    for (const balance of initial) {
      this.holdings.set(balance.currency, { free: balance.free, locked: balance.locked });
      this.moved = true;
    }
  }

  /** Whether a balance moved since the last call. */
  takeMoved(): boolean {
    const moved = this.moved;
    this.moved = false;
    return moved;
  }

  balances(): Balance[] {
    this.currencies ??= [...this.holdings.keys()].sort((a, b) => a.localeCompare(b));
    return this.currencies.map((currency) => {
      const { free, locked } = this.holdings.get(currency)!;
      return { currency, free, locked };
    });
  }

  free(currency: string): Decimal {
    return this.holdings.get(currency)?.free ?? ZERO;
  }

  lock(currency: string, amount: Decimal): void {
    const holding = this.holding(currency);
    if (holding.free.lt(amount)) {
      throw new ExchangeError(
        'insufficient_funds',
        `Insufficient ${currency}: ${amount.toFixed()} needed, ${holding.free.toFixed()} available`,
      );
    }
    holding.free = holding.free.minus(amount);
    holding.locked = holding.locked.plus(amount);
  }

  unlock(currency: string, amount: Decimal): void {
    const holding = this.holding(currency);
    holding.locked = holding.locked.minus(amount);
    holding.free = holding.free.plus(amount);
  }

  spendLocked(currency: string, amount: Decimal): void {
    const holding = this.holding(currency);
    holding.locked = holding.locked.minus(amount);
  }

  credit(currency: string, amount: Decimal): void {
    const holding = this.holding(currency);
    holding.free = holding.free.plus(amount);
  }

  /**
   * Makes what is locked of each currency what the open orders hold back (`backed`, by currency),
   * moving the difference between free and locked, where the funds allow. Returns the currencies
   * corrected, with what was locked before.
   */
  backLocks(backed: ReadonlyMap<string, Decimal>): Array<{ currency: string; locked: Decimal; backed: Decimal }> {
    const corrected: Array<{ currency: string; locked: Decimal; backed: Decimal }> = [];
    for (const currency of new Set([...this.holdings.keys(), ...backed.keys()])) {
      const held = backed.get(currency) ?? ZERO;
      const { free, locked } = this.holdings.get(currency) ?? { free: ZERO, locked: ZERO };
      if (locked.eq(held) || free.plus(locked).lt(held)) continue;
      const holding = this.holding(currency);
      holding.free = free.plus(locked).minus(held);
      holding.locked = held;
      corrected.push({ currency, locked, backed: held });
    }
    return corrected;
  }

  private holding(currency: string): Holding {
    this.moved = true;
    let holding = this.holdings.get(currency);
    if (!holding) {
      holding = { free: ZERO, locked: ZERO };
      this.holdings.set(currency, holding);
      this.currencies = null;
    }
    return holding;
  }
}
