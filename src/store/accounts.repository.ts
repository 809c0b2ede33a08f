import type {
  Account,
  AccountChanges,
  AccountsRepository,
  BalancePoint,
  NewAccount,
} from '../services/repositories.ts';
import type { Sql } from './database.ts';

interface AccountRow {
  id: number;
  user_id: number;
  name: string;
  market_code: string;
  sealed_credentials: string | null;
  include_in_summary: boolean;
  api_key_invalid: boolean;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = `id, user_id, name, market_code, sealed_credentials, include_in_summary, api_key_invalid,
  created_at, updated_at`;

const toAccount = (row: AccountRow): Account => ({
  id: row.id,
  userId: row.user_id,
  name: row.name,
  marketCode: row.market_code,
  sealedCredentials: row.sealed_credentials,
  includeInSummary: row.include_in_summary,
  apiKeyInvalid: row.api_key_invalid,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

const isUniqueViolation = (error: unknown) => (error as { code?: string }).code === '23505';

export class SqlAccountsRepository implements AccountsRepository {
  constructor(private readonly sql: Sql) {}

  async create(account: NewAccount): Promise<Account | undefined> {
    const rows = await this.sql.query<AccountRow>(
      `INSERT INTO accounts (user_id, name, market_code, sealed_credentials, exchange_key_hash)
       VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING RETURNING ${COLUMNS}`,
      [account.userId, account.name, account.marketCode, account.sealedCredentials, account.exchangeKeyHash],
    );
    return rows[0] && toAccount(rows[0]);
  }

  async findById(id: number): Promise<Account | undefined> {
    const rows = await this.sql.query<AccountRow>(
      `SELECT ${COLUMNS} FROM accounts WHERE id = $1 AND deleted_at IS NULL`,
      [id],
    );
    return rows[0] && toAccount(rows[0]);
  }

  async listByUser(userId: number): Promise<Account[]> {
    const rows = await this.sql.query<AccountRow>(
      `SELECT ${COLUMNS} FROM accounts WHERE user_id = $1 AND deleted_at IS NULL ORDER BY id`,
      [userId],
    );
    return rows.map(toAccount);
  }

  async update(id: number, changes: AccountChanges): Promise<boolean> {
    const fields: Array<[string, unknown]> = [];
    if (changes.name !== undefined) fields.push(['name', changes.name]);
    if (changes.sealedCredentials !== undefined) fields.push(['sealed_credentials', changes.sealedCredentials]);
    if (changes.exchangeKeyHash !== undefined) fields.push(['exchange_key_hash', changes.exchangeKeyHash]);
    if (changes.includeInSummary !== undefined) fields.push(['include_in_summary', changes.includeInSummary]);
    if (changes.apiKeyInvalid !== undefined) fields.push(['api_key_invalid', changes.apiKeyInvalid]);
    if (fields.length === 0) return true;
    const assignments = fields.map(([column], index) => `${column} = $${index + 2}`).join(', ');
    try {
      await this.sql.query(`UPDATE accounts SET ${assignments}, updated_at = now() WHERE id = $1`, [
        id,
        ...fields.map(([, value]) => value),
      ]);
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  async remove(id: number): Promise<void> {
    await this.sql.query('UPDATE accounts SET deleted_at = now(), updated_at = now() WHERE id = $1', [id]);
  }

  async recordBalance(accountId: number, day: string, usd: string, btc: string): Promise<void> {
    await this.sql.query(
      `INSERT INTO account_balance_history (account_id, day, usd, btc, opening_usd, opening_btc) VALUES ($1, $2, $3, $4, $3, $4)
       ON CONFLICT (account_id, day) DO UPDATE SET usd = EXCLUDED.usd, btc = EXCLUDED.btc`,
      [accountId, day, usd, btc],
    );
  }

  async balanceHistory(accountId: number, fromDay: string, toDay: string): Promise<BalancePoint[]> {
    return this.sql.query<BalancePoint>(
      `SELECT to_char(day, 'YYYY-MM-DD') AS day, usd::text AS usd, btc::text AS btc,
              opening_usd::text AS "openingUsd", opening_btc::text AS "openingBtc"
       FROM account_balance_history WHERE account_id = $1 AND day BETWEEN $2 AND $3 ORDER BY day`,
      [accountId, fromDay, toDay],
    );
  }
}
