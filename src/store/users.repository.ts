import type { User, UserMode, UsersRepository } from '../services/repositories.ts';
import type { Sql } from './database.ts';

interface UserRow {
  id: number;
  name: string;
  mode: UserMode;
  locale: string;
  created_at: Date;
}

const toUser = (row: UserRow): User => ({
  id: row.id,
  name: row.name,
  mode: row.mode,
  locale: row.locale,
  createdAt: row.created_at,
});

export class SqlUsersRepository implements UsersRepository {
  constructor(private readonly sql: Sql) {}

  async create(name: string): Promise<User | undefined> {
    const [row] = await this.sql.query<UserRow>(
      `INSERT INTO users (name) VALUES ($1) ON CONFLICT (name) DO NOTHING
       RETURNING id, name, mode, locale, created_at`,
      [name],
    );
    return row && toUser(row);
  }

  async findById(id: number): Promise<User | undefined> {
    const rows = await this.sql.query<UserRow>(
      'SELECT id, name, mode, locale, created_at FROM users WHERE id = $1',
      [id],
    );
    return rows[0] && toUser(rows[0]);
  }

  async findByName(name: string): Promise<User | undefined> {
    const rows = await this.sql.query<UserRow>(
      'SELECT id, name, mode, locale, created_at FROM users WHERE name = $1',
      [name],
    );
    return rows[0] && toUser(rows[0]);
  }

  async count(): Promise<number> {
    const [row] = await this.sql.query<{ count: number }>('SELECT count(*)::int AS count FROM users');
    return row?.count ?? 0;
  }

  async list(): Promise<User[]> {
    const rows = await this.sql.query<UserRow>('SELECT id, name, mode, locale, created_at FROM users ORDER BY id');
    return rows.map(toUser);
  }

  async setMode(id: number, mode: UserMode): Promise<void> {
    await this.sql.query('UPDATE users SET mode = $2, updated_at = now() WHERE id = $1', [id, mode]);
  }

  async setLocale(id: number, locale: string): Promise<void> {
    await this.sql.query('UPDATE users SET locale = $2, updated_at = now() WHERE id = $1', [id, locale]);
  }
}
