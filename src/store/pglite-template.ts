/**
 * A new embedded database is made from a shipped gzip dump of a PGlite data directory that was
 * only initialised (initdb, no migrations): loading it costs about a quarter of the CPU initdb
 * takes, which is most of a first start. Migrations run on it afterwards as on any database, so
 * the template does not go stale when they change. It is tied to the PGlite version that made it;
 * under any other version the database is initialised as before. After a PGlite upgrade,
 * `npm run build:pglite-template` makes it again (a test fails until then).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';

const TEMPLATE_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'pglite-template');
export const TEMPLATE_FILE = path.join(TEMPLATE_DIR, 'initdb.tar.gz');
export const TEMPLATE_VERSION_FILE = path.join(TEMPLATE_DIR, 'version.json');

/** The installed PGlite's version, from its package.json (its exports do not include that file). */
export function installedPgliteVersion(): string {
  const entry = fileURLToPath(import.meta.resolve('@electric-sql/pglite'));
  let directory = path.dirname(entry);
  while (!fs.existsSync(path.join(directory, 'package.json'))) directory = path.dirname(directory);
  return (JSON.parse(fs.readFileSync(path.join(directory, 'package.json'), 'utf8')) as { version: string }).version;
}

export function shippedTemplateVersion(): string | undefined {
  if (!fs.existsSync(TEMPLATE_VERSION_FILE)) return undefined;
  return (JSON.parse(fs.readFileSync(TEMPLATE_VERSION_FILE, 'utf8')) as { pglite: string }).pglite;
}

/** The shipped template as PGlite loads it, or undefined when there is none for this PGlite. */
export function shippedTemplate(): Blob | undefined {
  if (!fs.existsSync(TEMPLATE_FILE) || shippedTemplateVersion() !== installedPgliteVersion()) return undefined;
  return new Blob([fs.readFileSync(TEMPLATE_FILE)], { type: 'application/x-gzip' });
}

/** Initialises a PGlite in memory and writes its data directory as the shipped template. */
export async function buildShippedTemplate(): Promise<void> {
  const db = await PGlite.create();
  const dump = Buffer.from(await (await db.dumpDataDir('gzip')).arrayBuffer());
  await db.close();
  fs.mkdirSync(TEMPLATE_DIR, { recursive: true });
  fs.writeFileSync(TEMPLATE_FILE, dump);
  fs.writeFileSync(TEMPLATE_VERSION_FILE, `${JSON.stringify({ pglite: installedPgliteVersion() })}\n`);
}
