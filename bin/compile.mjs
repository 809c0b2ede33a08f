// Compiles the TypeScript sources to plain JavaScript under .cache/js, one file each, with the
// same esbuild transform tsx applies on the fly. Node 20 runs loader hooks on a thread of their
// own and pays a round trip per module: through tsx, loading the server's ~400 modules cost about
// 2 s of CPU per process, more than most test files spend testing, and seconds of every CLI call.
// Compiled once, a process loads plain files. Each build goes to a folder named by the sources'
// fingerprint, made whole before it is renamed into place, so processes starting at once share
// one build and never see half of one. `import.meta.url` still names the source file, so what a
// module reads beside itself (migrations, fixtures, web/) is found where it is.
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const ROOT = path.resolve(import.meta.dirname, '..');
export const SOURCE_DIRS = ['src', 'test', 'web', 'bench'];
const TS = /\.tsx?$/;
const SOURCE_URL = '__sourceFileUrl';
const SOURCE_DIRNAME = '__sourceFileDirname';
const SOURCE_FILENAME = '__sourceFileName';
// Processes load every module they use as they start (the server's dynamic imports run at start).
const KEEP_UNUSED_BUILDS_MS = 60 * 60 * 1000;
/**
 * Packages published as hundreds of small modules, bundled into the build (`vendor/`, the modules
 * they share in common chunks, so each exists once): TypeBox's compiler and value modules are
 * about 680 files and the indicators 176, which cost every process about 0.65 s of CPU to load.
 * The specifier each import names, and the file it is bundled to.
 */
const VENDORED = {
  typebox: 'typebox',
  'typebox/compile': 'typebox-compile',
  'typebox/format': 'typebox-format',
  'typebox/system': 'typebox-system',
  'typebox/value': 'typebox-value',
  'trading-signals': 'trading-signals',
};
const VENDOR_DIR = 'vendor';

/**
 * The folder holding the compiled sources of `root` (the checkout by default), built first if
 * these sources were never built. `dirs` are the folders compiled, relative to `root`.
 */
export async function compiledSources({ root = ROOT, dirs = SOURCE_DIRS } = {}) {
  let files = dirs
    .map((dir) => path.resolve(root, dir))
    .filter((dir) => fs.existsSync(dir))
    .flatMap(walk);
  files = [...new Set(files)].sort();
  const cacheDir = path.join(root, '.cache', 'js');
  const outDir = path.join(cacheDir, fingerprint(files));
  if (fs.existsSync(outDir)) {
    const now = new Date();
    fs.utimesSync(outDir, now, now);
    return outDir;
  }
  const partial = `${outDir}.partial-${randomBytes(4).toString('hex')}`;
  await build(root, files, partial);
  try {
    fs.renameSync(partial, outDir);
  } catch (error) {
    // Another process built the same sources at the same time; its build is as good.
    fs.rmSync(partial, { recursive: true, force: true });
    if (!fs.existsSync(outDir)) throw error;
  }
  removeOldBuilds(cacheDir, outDir);
  return outDir;
}

/** Where the compiled copy of `sourceFile` is, in the build `outDir` of `root`. */
export function compiledPath(outDir, sourceFile, root = ROOT) {
  // esbuild names a folder above its base `_.._`.
  const parts = path.relative(root, path.resolve(sourceFile)).split(path.sep);
  return path.join(outDir, ...parts.map((part) => (part === '..' ? '_.._' : part))).replace(TS, '.js');
}

/** The source file whose compiled copy is `compiledFile` (a test file: `.ts`). */
export function sourcePath(outDir, compiledFile, root = ROOT) {
  const parts = path.relative(outDir, compiledFile).split(path.sep);
  return path.join(root, ...parts.map((part) => (part === '_.._' ? '..' : part))).replace(/\.js$/, '.ts');
}

function walk(dir) {
  const found = fs.statSync(dir).isFile() ? [dir] : fs.readdirSync(dir, { recursive: true }).map((file) => path.join(dir, String(file)));
  return found
    .map((file) => path.resolve(file))
    .filter((file) => TS.test(file) && !file.endsWith('.d.ts') && !file.split(path.sep).includes('node_modules'));
}

/** The sources' names, sizes and modification times, this file and the bundled packages' versions: any change, a new build. */
function fingerprint(files) {
  const hash = createHash('sha256').update(fs.readFileSync(import.meta.filename));
  for (const pkg of new Set(Object.keys(VENDORED).map((specifier) => specifier.split('/')[0]))) {
    hash.update(fs.readFileSync(path.join(ROOT, 'node_modules', pkg, 'package.json')));
  }
  for (const file of files) {
    const stat = fs.statSync(file);
    hash.update(`${file}\0${stat.size}\0${stat.mtimeMs}\n`);
  }
  return hash.digest('hex').slice(0, 16);
}

async function build(root, files, outdir) {
  const esbuild = await import('esbuild');
  await esbuild.build({
    entryPoints: files,
    outdir,
    outbase: root,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: 'linked',
    logLevel: 'error',
    define: { 'import.meta.url': SOURCE_URL, 'import.meta.dirname': SOURCE_DIRNAME, 'import.meta.filename': SOURCE_FILENAME },
    plugins: [keepSourceLocations(root, outdir)],
  });
  await esbuild.build({
    entryPoints: Object.entries(VENDORED).map(([specifier, file]) => ({ in: specifier, out: file })),
    outdir: path.join(outdir, VENDOR_DIR),
    absWorkingDir: ROOT,
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'error',
  });
}

function keepSourceLocations(root, outDir) {
  return {
    name: 'keep-source-locations',
    setup(build) {
      // Every import stays an import: packages as they are, TypeScript files as their compiled
      // copies, anything else (.mjs, .json) at its place in the source tree.
      build.onResolve({ filter: /.*/ }, (args) => {
        if (args.kind === 'entry-point') return undefined;
        const from = path.dirname(compiledPath(outDir, args.importer, root));
        const vendored = VENDORED[args.path];
        if (vendored !== undefined) return { path: relativeImport(from, path.join(outDir, VENDOR_DIR, `${vendored}.js`)), external: true };
        if (!args.path.startsWith('.')) return { path: args.path, external: true };
        if (TS.test(args.path)) return { path: args.path.replace(TS, '.js'), external: true };
        const target = path.resolve(args.resolveDir, args.path);
        return { path: path.relative(from, target), external: true };
      });
      // `import.meta.url` and its kin become constants naming the source file, declared on the
      // first line so that lines keep their numbers (esbuild's define leaves strings alone).
      build.onLoad({ filter: TS }, async (args) => {
        const text = await fs.promises.readFile(args.path, 'utf8');
        const names = `const ${SOURCE_URL} = ${JSON.stringify(pathToFileURL(args.path).href)}, ${SOURCE_DIRNAME} = ${JSON.stringify(path.dirname(args.path))}, ${SOURCE_FILENAME} = ${JSON.stringify(args.path)}; `;
        return { contents: text.includes('import.meta') ? names + text : text, loader: args.path.endsWith('x') ? 'tsx' : 'ts' };
      });
    },
  };
}

function relativeImport(from, file) {
  const relative = path.relative(from, file).split(path.sep).join('/');
  return relative.startsWith('.') ? relative : `./${relative}`;
}

/** Builds of other sources that no process started from for an hour. */
function removeOldBuilds(cacheDir, current) {
  for (const entry of fs.readdirSync(cacheDir)) {
    const dir = path.join(cacheDir, entry);
    if (dir === current) continue;
    try {
      if (Date.now() - fs.statSync(dir).mtimeMs > KEEP_UNUSED_BUILDS_MS) fs.rmSync(dir, { recursive: true, force: true });
    } catch {
      // Removed by another process meanwhile.
    }
  }
}
