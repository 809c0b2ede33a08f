/**
 * Builds the dashboard (web/) in memory with esbuild the first time it is asked for, once per
 * process: nothing generated is committed or written to disk, and servers that never serve the
 * dashboard (tests through the API, the command line) never pay for the build. Each file is kept
 * with its gzip and Brotli forms, compressed once.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

export const WEB_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../web');

export interface Asset {
  contentType: string;
  raw: Buffer;
  gzip: Buffer;
  brotli: Buffer;
  /** Hashed names never change content, so browsers may keep them for good. */
  immutable: boolean;
}

export type Bundle = Map<string, Asset>;

let building: Promise<Bundle> | undefined;

export function dashboardBundle(): Promise<Bundle> {
  building ??= build().catch((error: unknown) => {
    building = undefined;
    throw error;
  });
  return building;
}

async function build(): Promise<Bundle> {
  const esbuild = await import('esbuild');
  const result = await esbuild.build({
    entryPoints: [path.join(WEB_ROOT, 'main.tsx')],
    bundle: true,
    write: false,
    minify: true,
    format: 'esm',
    target: ['es2022', 'chrome110', 'firefox115', 'safari16'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    outdir: 'out',
    entryNames: 'app-[hash]',
    legalComments: 'none',
    logLevel: 'silent',
  });
  const bundle: Bundle = new Map();
  const names: string[] = [];
  for (const file of result.outputFiles) {
    const name = path.basename(file.path);
    names.push(name);
    bundle.set(`/assets/${name}`, asset(name.endsWith('.css') ? 'text/css; charset=utf-8' : 'text/javascript; charset=utf-8', Buffer.from(file.contents), true));
  }
  const script = names.find((name) => name.endsWith('.js'))!;
  const style = names.find((name) => name.endsWith('.css'));
  const html = (await fs.readFile(path.join(WEB_ROOT, 'index.html'), 'utf8'))
    .replace('<!-- style -->', style === undefined ? '' : `<link rel="stylesheet" href="/assets/${style}">`)
    .replace('<!-- script -->', `<script type="module" src="/assets/${script}"></script>`);
  bundle.set('/', asset('text/html; charset=utf-8', Buffer.from(html), false));
  const icon = await fs.readFile(path.join(WEB_ROOT, 'favicon.svg'));
  bundle.set('/favicon.svg', asset('image/svg+xml', icon, false));
  return bundle;
}

function asset(contentType: string, raw: Buffer, immutable: boolean): Asset {
  return {
    contentType,
    raw,
    gzip: gzipSync(raw, { level: 9 }),
    brotli: brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length } }),
    immutable,
  };
}

