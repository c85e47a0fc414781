/**
 * Test helpers (proxy/testing/: stand-in sockets, fixtures' launchers, harnesses) stay out of what
 * users install (issue 21, item 9): tsconfig.proxy.json compiles none, the built dist/ holds none
 * and nothing in it imports one, and `npm pack` lists none. Runs on the build `npm test` makes first.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');
/** A test helper: anything under a `testing/` folder (and the older `test-*.ts` names, should one come back). */
const HELPER = /(^|\/)(testing\/|test-[^/]*$)/;
const TEST = /\.test\.[cm]?[jt]s$/;

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)]));
}

/** The module specifiers of `import … from '…'`, `import('…')` and `export … from '…'` in built JavaScript. */
function importsOf(text: string): string[] {
  return [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])([^'"]+)\1/g)].map((m) => m[2]);
}

describe('test helpers are not shipped', () => {
  it('tsconfig.proxy.json compiles no test and no test helper', () => {
    const parsed = ts.getParsedCommandLineOfConfigFile(join(ROOT, 'tsconfig.proxy.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => { throw new Error(String(d.messageText)); } });
    const compiled = parsed!.fileNames.map((f) => relative(ROOT, f));
    expect(compiled).toContain('proxy/cli.ts');
    expect(compiled.filter((f) => HELPER.test(f) || TEST.test(f))).toEqual([]);
  });

  it('dist/ holds none, and no built file imports one', () => {
    expect(existsSync(join(ROOT, 'dist', 'proxy', 'cli.js')), 'build first: node .ci/build.mjs proxy').toBe(true);
    const built = ['proxy', 'lib'].flatMap((dir) => filesUnder(join(ROOT, 'dist', dir))).map((f) => relative(ROOT, f));
    expect(built.filter((f) => HELPER.test(f) || TEST.test(f))).toEqual([]);
    const importing = built.filter((f) => f.endsWith('.js')).flatMap((f) => importsOf(readFileSync(join(ROOT, f), 'utf8')).filter((spec) => HELPER.test(spec.replace(/\.[jt]s$/, ''))).map((spec) => `${f} imports ${spec}`));
    expect(importing).toEqual([]);
  });

  it('npm pack lists none', () => {
    const packed = JSON.parse(execFileSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20, stdio: ['ignore', 'pipe', 'ignore'] })) as { files: { path: string }[] }[];
    const files = packed[0].files.map((f) => f.path);
    expect(files).toContain('dist/proxy/cli.js');
    expect(files.filter((f) => HELPER.test(f) || TEST.test(f))).toEqual([]);
  });
});
