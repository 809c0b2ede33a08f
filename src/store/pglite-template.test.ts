import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Database } from './database.ts';
import { migrate } from './migrate.ts';
import { openPglite } from './pglite-database.ts';
import { installedPgliteVersion, shippedTemplate, shippedTemplateVersion } from './pglite-template.ts';

/** What makes two databases the same to the server: settings, schema, rows the migrations wrote. */
async function describeDatabase(db: Database): Promise<unknown> {
  const rows = (text: string) => db.query(text);
  return {
    database: await rows(`SELECT datname, pg_encoding_to_char(encoding) AS encoding, datcollate, datctype FROM pg_database ORDER BY datname`),
    settings: await rows(`SELECT name, setting FROM pg_settings WHERE name NOT IN ('transaction_read_only') ORDER BY name`),
    roles: await rows(`SELECT rolname, rolsuper FROM pg_roles ORDER BY rolname`),
    extensions: await rows(`SELECT extname, extversion FROM pg_extension ORDER BY extname`),
    columns: await rows(
      `SELECT table_name, column_name, data_type, column_default, is_nullable, ordinal_position
         FROM information_schema.columns WHERE table_schema = 'public' ORDER BY table_name, ordinal_position`,
    ),
    constraints: await rows(
      `SELECT conrelid::regclass::text AS on_table, conname, pg_get_constraintdef(oid) AS definition
         FROM pg_constraint WHERE connamespace = 'public'::regnamespace ORDER BY on_table, conname`,
    ),
    indexes: await rows(`SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' ORDER BY indexname`),
    functions: await rows(
      `SELECT proname, pg_get_functiondef(oid) AS definition FROM pg_proc WHERE pronamespace = 'public'::regnamespace ORDER BY proname`,
    ),
    migrations: await rows(`SELECT version, name FROM schema_migrations ORDER BY version`),
  };
}

describe('the shipped PGlite template', () => {
  it('was made by the installed PGlite, so a first start uses it (npm run build:pglite-template remakes it)', () => {
    assert.equal(shippedTemplateVersion(), installedPgliteVersion());
    assert.ok(shippedTemplate() !== undefined);
  });

  it('is an initialised data directory and nothing more, which once migrated is the database initdb and the migrations give', async () => {
    const template = shippedTemplate();
    assert.ok(template !== undefined);
    const fromTemplate = await openPglite({ loadDataDir: template });
    const initialised = await openPglite({});
    try {
      assert.deepEqual(await fromTemplate.query(`SELECT tablename FROM pg_tables WHERE schemaname = 'public'`), [], 'no table of the server is in it');
      await migrate(fromTemplate);
      await migrate(initialised);
      const expected = await describeDatabase(initialised);
      assert.deepEqual(await describeDatabase(fromTemplate), expected);
      assert.ok((expected as { columns: unknown[] }).columns.length > 50, 'the migrations made the tables');
    } finally {
      await fromTemplate.close();
      await initialised.close();
    }
  });
});
