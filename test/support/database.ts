/**
 * A fresh, migrated database for one test file. With DATABASE_URL it is a new schema in that
 * PostgreSQL (dropped on close); without, a PGlite instance loaded from a template data
 * directory that is built once per migration set, because initdb costs seconds per instance.
 * `seedEmbeddedDatabase` gives a server's DATA_DIR the same template, for tests of a server
 * that are not about its very first start.
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

async function openPostgresSchema(url: string): Promise<Database> {
  const schema = `test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const db = await openPostgres(url, schema);
  await migrate(db);
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

async function openPgliteFromTemplate(): Promise<Database> {
  const { templateFile, migrations } = await templateTar();
  const db = await openPglite({ loadDataDir: new Blob([fs.readFileSync(templateFile)]) });
  await migrate(db, migrations);
  return db;
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
