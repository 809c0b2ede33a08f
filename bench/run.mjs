// Runs the benchmarks (run.ts) on the code as `npm start` runs it: the sources compiled by
// bin/compile.mjs. Through tsx, esbuild keeps every function's name by defining it on the function
// (`keepNames`), which gave each closure made at run time a property store of its own: 3.4 KB per
// paper account in the grid benchmark's memory per bot, and time spent that the server never spends.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { compiledPath, compiledSources } from '../bin/compile.mjs';

const outDir = await compiledSources();
process.setSourceMapsEnabled(true);
const load = (sourceFile) => import(pathToFileURL(compiledPath(outDir, sourceFile)).href);
const { main } = await load(path.join(import.meta.dirname, 'run.ts'));
process.exitCode = await main(load);
