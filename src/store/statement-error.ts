/**
 * What a failed statement may tell the logs. Driver errors carry the SQL text with its parameter
 * values, and their messages quote values too ("invalid input syntax for type bigint: ..."), which
 * can be users' notes, credentials being stored, or whatever a client sent. Both stores throw this
 * instead: the statement's name (its verb and first table), the SQLSTATE code and, for constraint
 * violations, the constraint's name. Code that reacts to a code (a unique violation) still can.
 */
import { StorageUnavailableError } from '../shared/errors.ts';

export class StatementError extends Error {
  override readonly name = 'StatementError';
  readonly statement: string;
  readonly code: string | undefined;
  readonly constraint: string | undefined;

  constructor(sql: string, cause: unknown) {
    const { code, constraint } = (cause ?? {}) as { code?: unknown; constraint?: unknown };
    const statement = statementName(sql);
    const sqlState = typeof code === 'string' ? code : undefined;
    super(`${statement} failed${sqlState ? ` with SQLSTATE ${sqlState}` : ''}`);
    this.statement = statement;
    this.code = sqlState;
    this.constraint = typeof constraint === 'string' ? constraint : undefined;
  }
}

/** `SELECT dca_deals`, `INSERT api_keys`, `UPDATE users`: enough to find the statement in the code. */
export function statementName(sql: string): string {
  const verb = /^\s*(\w+)/.exec(sql)?.[1]?.toUpperCase() ?? 'SQL';
  const table =
    /\b(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+([a-z_][a-z0-9_.]*)/i.exec(sql)?.[1] ??
    /\bFROM\s+([a-z_][a-z0-9_.]*)/i.exec(sql)?.[1];
  return table === undefined ? verb : `${verb} ${table}`;
}

/** Runs a statement, turning its failure into a StatementError. */
export async function named<T>(sql: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof StorageUnavailableError) throw error;
    throw new StatementError(sql, error);
  }
}
