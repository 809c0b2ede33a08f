/**
 * A fresh, migrated database for one test file. With DATABASE_URL it is a new schema in that
 * PostgreSQL (dropped on close); without, a PGlite instance loaded from a template data
 * directory that is built once per migration set, because initdb costs seconds per instance.
 * Test files share a process (scripts/run-tests.mjs), so a closed PGlite instance is emptied and
 * kept for the next file of the process instead: loading one costs about a second of CPU,
 * emptying one a tenth of that. A kept instance holds a timer of PostgreSQL's, so they are all
 * closed once the runner says its group of files ended; run otherwise, nothing is kept. `seedEmbeddedDatabase` gives a server's DATA_DIR the same
 * template, for tests of a server that are not about its very first start.
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import type { Database } from '../../src/store/database.ts';
import { loadMigrations, migrate } from '../../src/store/migrate.ts';
import { isPgliteDatabase, openPglite } from '../../src/store/pglite-database.ts';
import { shippedTemplate } from '../../src/store/pglite-template.ts';
import { openPostgres } from '../../src/store/postgres-database.ts';

const CACHE_DIR = path.resolve('.cache');

export async function openTestDatabase(): Promise<Database> {
  const url = process.env.DATABASE_URL;
  return url ? openPostgresSchema(url) : openPgliteFromTemplate();
}

/** A fresh database with no migration applied (for tests of what a migration does to stored data). */
export async function openUnmigratedDatabase(): Promise<Database> {
  const url = process.env.DATABASE_URL;
  if (url) return openPostgresSchema(url, false);
  const shipped = shippedTemplate();
  return openPglite(shipped === undefined ? {} : { loadDataDir: shipped });
}

async function openPostgresSchema(url: string, migrated = true): Promise<Database> {
  const schema = `test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const db = await openPostgres(url, schema);
  if (migrated) await migrate(db);
  const close = db.close.bind(db);
  return Object.assign(db, {
    close: async () => {
      await db.exec(`DROP SCHEMA ${schema} CASCADE`);
      await close();
    },
  });
}

/** Puts a migrated, empty embedded database into DATA_DIR/pgdata, as a first start would. */
export async function seedEmbeddedDatabase(dataDir: string): Promise<void> {
  const { templateFile, hash } = await templateTar();
  const templateDir = path.join(CACHE_DIR, `pgdata-template-${hash}`);
  if (!fs.existsSync(templateDir)) {
    const partial = `${templateDir}.${randomBytes(6).toString('hex')}`;
    const db = await openPglite({ dataDir: partial, loadDataDir: new Blob([fs.readFileSync(templateFile)]) });
    await db.close();
    try {
      fs.renameSync(partial, templateDir);
    } catch {
      // Another test process made it first; theirs is as good.
      fs.rmSync(partial, { recursive: true, force: true });
    }
  }
  fs.cpSync(templateDir, path.join(dataDir, 'pgdata'), { recursive: true });
}

/** Emptied instances, each as migrated as the template. */
const idle: Database[] = [];
const groupEnd = process.env.TRADELOOP_TEST_GROUP_END;
let keeping = groupEnd !== undefined;
if (groupEnd !== undefined) {
  process.once(groupEnd, () => {
    keeping = false;
    for (const db of idle.splice(0)) void db.close();
  });
}
/** How many migrations and tables a database loaded from the template has. */
let shape: { migrations: number; tables: number } | undefined;

async function openPgliteFromTemplate(): Promise<Database> {
  const db = idle.pop() ?? (await loadTemplate());
  let closed = false;
  const open = () => {
    // Whatever a closed file left running must not write into the next file's database.
    if (closed) throw new Error('the database is closed');
  };
  // The instance itself (a PGlite database to isPgliteDatabase), but what a test closes goes
  // back to the pool, and is closed to that test.
  return Object.assign(Object.create(db) as Database, {
    query: (text: string, params?: unknown[]) => (open(), db.query(text, params)),
    exec: (text: string) => (open(), db.exec(text)),
    transaction: (work: Parameters<Database['transaction']>[0]) => (open(), db.transaction(work)),
    close: async () => {
      if (closed) return;
      closed = true;
      if (keeping && (await emptied(db)) && keeping) idle.push(db);
      else await db.close();
    },
  });
}

async function loadTemplate(): Promise<Database> {
  const { templateFile, migrations } = await templateTar();
  const db = await openPglite({ loadDataDir: new Blob([fs.readFileSync(templateFile)]) });
  await migrate(db, migrations);
  shape ??= { migrations: migrations.length, tables: await tableCount(db) };
  return db;
}

async function tableCount(db: Database): Promise<number> {
  const [row] = await db.query<{ tables: number }>(`SELECT count(*)::int AS tables FROM pg_tables WHERE schemaname = 'public'`);
  return row!.tables;
}

/**
 * Every table emptied and every sequence restarted, as loaded from the template; false when the
 * instance cannot be made so (a test changed its schema, or left it unusable).
 */
async function emptied(db: Database): Promise<boolean> {
  try {
    const [row] = await db.query<{ migrations: number }>('SELECT count(*)::int AS migrations FROM schema_migrations');
    if (row?.migrations !== shape?.migrations || (await tableCount(db)) !== shape?.tables) return false;
    await db.exec(`DO $$ DECLARE s record; BEGIN
      EXECUTE (SELECT 'TRUNCATE ' || string_agg(format('%I', tablename), ', ') || ' RESTART IDENTITY CASCADE'
               FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'schema_migrations');
      FOR s IN SELECT sequencename FROM pg_sequences WHERE schemaname = 'public' LOOP
        EXECUTE format('ALTER SEQUENCE %I RESTART', s.sequencename);
      END LOOP;
    END $$`);
    // The one row a migration seeds (0063).
    await db.exec('INSERT INTO paper_order_ids VALUES (1)');
    return true;
  } catch {
    return false;
  }
}

async function templateTar() {
  const migrations = loadMigrations();
  const hash = createHash('sha256').update(JSON.stringify(migrations)).digest('hex').slice(0, 16);
  const templateFile = path.join(CACHE_DIR, `pglite-template-${hash}.tar`);
  if (!fs.existsSync(templateFile)) {
    const shipped = shippedTemplate();
    const db = await openPglite(shipped === undefined ? {} : { loadDataDir: shipped });
    await migrate(db, migrations);
    if (!isPgliteDatabase(db)) throw new Error('expected PGlite');
    const dump = Buffer.from(await (await db.dump()).arrayBuffer());
    await db.close();
    fs.mkdirSync(CACHE_DIR, { recursive: true });
    // Parallel test processes may build it at the same time; the rename keeps the file whole.
    const partial = `${templateFile}.${process.pid}`;
    fs.writeFileSync(partial, dump);
    fs.renameSync(partial, templateFile);
  }
  return { templateFile, hash, migrations };
}
