// Worker threads do not inherit how the main thread loads TypeScript. A sweep's worker loads the
// sources compiled as the server runs them (bin/compile.mjs); where the checkout cannot be written
// to, it registers tsx and loads them as they are, as bin/tradeloop.js does.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { compiledPath, compiledSources } from '../../bin/compile.mjs';

const source = path.join(import.meta.dirname, 'sweep-worker.ts');
let url;
try {
  url = pathToFileURL(compiledPath(await compiledSources(), source)).href;
} catch (error) {
  if (!['EACCES', 'EPERM', 'EROFS'].includes(error?.code)) throw error;
  const { register } = await import('tsx/esm/api');
  register();
  url = pathToFileURL(source).href;
}
await import(url);
