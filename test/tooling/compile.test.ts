/** bin/compile.mjs: the sources as plain JavaScript, built once per change, found where they were. */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, describe, it } from 'node:test';
// @ts-expect-error: a plain script of the command, without type declarations
import * as compile from '../../bin/compile.mjs';

const { compiledSources, compiledPath, sourcePath } = compile as {
  compiledSources(options: { root: string; dirs: string[] }): Promise<string>;
  compiledPath(outDir: string, source: string, root: string): string;
  sourcePath(outDir: string, compiled: string, root: string): string;
};

describe('bin/compile.mjs', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'tradeloop-compile-'));
  after(() => fs.rmSync(root, { recursive: true, force: true }));
  fs.mkdirSync(path.join(root, 'src', 'data'), { recursive: true });
  fs.writeFileSync(path.join(root, 'src', 'data', 'value.json'), '{"value": 42}');
  fs.writeFileSync(path.join(root, 'src', 'helper.mjs'), 'export const helper = "plain";\n');
  fs.writeFileSync(
    path.join(root, 'src', 'main.ts'),
    `import fs from 'node:fs';
import { twice } from './lib/twice.ts';
import { helper } from './helper.mjs';
import Type from 'typebox';
import Value from 'typebox/value';
const data: { value: number } = JSON.parse(fs.readFileSync(new URL('./data/value.json', import.meta.url), 'utf8'));
const checked = Value.Check(Type.Object({ value: Type.Number() }), data);
export const answer = { doubled: twice(data.value), helper, url: import.meta.url, dirname: import.meta.dirname, checked };
`,
  );
  fs.mkdirSync(path.join(root, 'src', 'lib'));
  fs.writeFileSync(path.join(root, 'src', 'lib', 'twice.ts'), 'export const twice = (n: number): number => n * 2;\n');
  const source = path.join(root, 'src', 'main.ts');

  it('runs TypeScript as plain files that still name their source and read beside it', async () => {
    const outDir = await compiledSources({ root, dirs: ['src'] });
    const compiled = compiledPath(outDir, source, root);
    assert.ok(compiled.startsWith(path.join(root, '.cache', 'js')) && compiled.endsWith('main.js'));
    assert.equal(sourcePath(outDir, compiled, root), source);
    const { answer } = await import(pathToFileURL(compiled).href);
    assert.deepEqual(answer, { doubled: 84, helper: 'plain', url: pathToFileURL(source).href, dirname: path.dirname(source), checked: true });
  });

  it('loads the packages made of hundreds of modules from bundles made with the build', async () => {
    const outDir = await compiledSources({ root, dirs: ['src'] });
    const text = fs.readFileSync(compiledPath(outDir, source, root), 'utf8');
    assert.match(text, /from "\.\.\/vendor\/typebox\.js"/);
    assert.match(text, /from "\.\.\/vendor\/typebox-value\.js"/);
    // The bundled entry points work together: Value checks a schema made by Type (above).
    const { answer } = await import(pathToFileURL(compiledPath(outDir, source, root)).href);
    assert.equal(answer.checked, true);
  });

  it('builds once for the same sources, and again when one changes', async () => {
    const first = await compiledSources({ root, dirs: ['src'] });
    assert.equal(await compiledSources({ root, dirs: ['src'] }), first);
    fs.writeFileSync(path.join(root, 'src', 'lib', 'twice.ts'), 'export const twice = (n: number): number => n + n + 1;\n');
    const second = await compiledSources({ root, dirs: ['src'] });
    assert.notEqual(second, first);
    const { answer } = await import(pathToFileURL(compiledPath(second, source, root)).href);
    assert.equal(answer.doubled, 85);
  });
});
