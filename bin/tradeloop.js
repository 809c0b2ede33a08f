#!/usr/bin/env node
// Runs the TypeScript sources, compiled to plain JavaScript on first use (bin/compile.mjs), so
// there is no build step to forget and a command starts in a fraction of what tsx costs. Where
// the checkout cannot be written to, tsx runs the sources as they are.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { compiledPath, compiledSources } from './compile.mjs';

const mainSource = path.join(import.meta.dirname, '..', 'src', 'main.ts');
let main;
try {
  const outDir = await compiledSources();
  process.setSourceMapsEnabled(true);
  ({ main } = await import(pathToFileURL(compiledPath(outDir, mainSource)).href));
} catch (error) {
  if (!['EACCES', 'EPERM', 'EROFS'].includes(error?.code)) throw error;
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import(pathToFileURL(mainSource).href));
}
process.exitCode = await main(process.argv.slice(2));
