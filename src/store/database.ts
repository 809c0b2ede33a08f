/** The one query interface both stores implement. SQL is PostgreSQL 15 compatible. */
export interface Sql {
  query<Row extends object = Record<string, unknown>>(text: string, params?: unknown[]): Promise<Row[]>;
}

export interface Database extends Sql {
  readonly kind: 'pglite' | 'postgres';
  /** Runs several statements at once (migrations); no parameters. */
  exec(text: string): Promise<void>;
  transaction<T>(work: (tx: Sql) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}
