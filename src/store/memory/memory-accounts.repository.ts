/**
 * Exchange accounts in memory, for backtests: the SQL repository's rules (one connection per
 * exchange key, removed accounts are hidden, one balance point per account and day).
 */
import type { Account, AccountChanges, AccountsRepository, BalancePoint, NewAccount } from '../../services/repositories.ts';

interface Row extends Account {
  exchangeKeyHash: string | null;
  removed: boolean;
}

export class MemoryAccountsRepository implements AccountsRepository {
  private readonly rows = new Map<number, Row>();
  private readonly history = new Map<number, Map<string, BalancePoint>>();
  private lastId = 0;

  constructor(private readonly now: () => Date = () => new Date()) {}

  async create(account: NewAccount): Promise<Account | undefined> {
    if (account.exchangeKeyHash !== null && this.keyTaken(account.marketCode, account.exchangeKeyHash)) return undefined;
    const at = this.now();
    const row: Row = {
      id: ++this.lastId,
      userId: account.userId,
      name: account.name,
      marketCode: account.marketCode,
      sealedCredentials: account.sealedCredentials,
      exchangeKeyHash: account.exchangeKeyHash,
      includeInSummary: true,
      apiKeyInvalid: false,
      createdAt: at,
      updatedAt: at,
      removed: false,
    };
    this.rows.set(row.id, row);
    return toAccount(row);
  }

  async findById(id: number): Promise<Account | undefined> {
    const row = this.rows.get(id);
    return row && !row.removed ? toAccount(row) : undefined;
  }

  async listByUser(userId: number): Promise<Account[]> {
    return [...this.rows.values()].filter((row) => row.userId === userId && !row.removed).map(toAccount);
  }

  async update(id: number, changes: AccountChanges): Promise<boolean> {
    const row = this.rows.get(id);
    if (!row) return true;
    const { exchangeKeyHash } = changes;
    if (exchangeKeyHash !== undefined && exchangeKeyHash !== null && this.keyTaken(row.marketCode, exchangeKeyHash, id)) return false;
    const defined = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
    Object.assign(row, defined, { updatedAt: this.now() });
    return true;
  }

  async remove(id: number): Promise<void> {
    const row = this.rows.get(id);
    if (row) Object.assign(row, { removed: true, updatedAt: this.now() });
  }

  async recordBalance(accountId: number, day: string, usd: string, btc: string): Promise<void> {
    let days = this.history.get(accountId);
    if (!days) this.history.set(accountId, (days = new Map()));
    const opening = days.get(day);
    days.set(day, { day, usd, btc, openingUsd: opening?.openingUsd ?? usd, openingBtc: opening?.openingBtc ?? btc });
  }

  async balanceHistory(accountId: number, fromDay: string, toDay: string): Promise<BalancePoint[]> {
    return [...(this.history.get(accountId)?.values() ?? [])]
      .filter((point) => point.day >= fromDay && point.day <= toDay)
      .sort((a, b) => (a.day < b.day ? -1 : 1));
  }

  private keyTaken(marketCode: string, hash: string, exceptId?: number): boolean {
    return [...this.rows.values()].some(
      (row) => row.marketCode === marketCode && row.exchangeKeyHash === hash && !row.removed && row.id !== exceptId,
    );
  }
}

function toAccount(row: Row): Account {
  const { exchangeKeyHash: _hash, removed: _removed, ...account } = row;
  return { ...account };
}
