/** The one query interface both stores implement. SQL is PostgreSQL 15 compatible. */
export interface Sql {
  query<Row extends object = Record<string, unknown>>(text: string, params?: unknown[]): Promise<Row[]>;
  /**
   * A statement whose rows nobody reads. In a PostgreSQL transaction it is sent with the next
   * statement or with the commit, several in one round trip, so its error surfaces there.
   */
  write(text: string, params?: unknown[]): Promise<void>;
}

export interface NotifyHandlers {
  onNotify(payload: string): void;
  /** Listening again after its connection was lost: what was sent meanwhile was missed. */
  onResumed(): void;
}

export interface Database extends Sql {
  readonly kind: 'pglite' | 'postgres';
  /** Runs several statements at once (migrations); no parameters. */
  exec(text: string): Promise<void>;
  transaction<T>(work: (tx: Sql) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /**
   * PostgreSQL only (the embedded store belongs to one process): hears NOTIFY on `channel` from
   * every process sharing the database. Resolves once listening; call the answer to stop.
   */
  listen?(channel: string, handlers: NotifyHandlers): Promise<() => Promise<void>>;
}
