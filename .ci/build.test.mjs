// The build cache of .ci/build.mjs on real files in a temporary tree, with a stand-in build step;
// and Next's own telemetry switch, asked in a child process the way `next build` asks it.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HALVES, ensureBuilt, inputState, parseArgs } from './build.mjs';
import { nextEnv } from './next.mjs';

const require = createRequire(import.meta.url);
let root;
const write = (path, text) => {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
};

/** The proxy half's real inputs, with a build that writes its output and counts its runs. */
function fakeProxy(exitCode = () => 0) {
  const half = { ...HALVES.proxy, runs: 0 };
  half.build = async () => {
    half.runs += 1;
    write('dist/proxy/cli.js', `// built from ${readFileSync(join(root, 'proxy/cli.ts'), 'utf8')}`);
    return exitCode();
  };
  return half;
}

const build = (half, options = {}) => {
  const lines = [];
  return ensureBuilt(root, 'proxy', { half, log: (line) => lines.push(line), ...options }).then((code) => ({ code, lines }));
};

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'loupe-build-'));
  write('proxy/cli.ts', 'console.log(1);\n');
  write('lib/wire/wire.ts', 'export const a = 1;\n');
  write('tsconfig.proxy.json', '{}\n');
  write('package-lock.json', '{}\n');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('fingerprint', () => {
  it('depends on content and paths, not on mtimes or the order files were written', () => {
    const first = inputState(root, HALVES.proxy).hash;
    utimesSync(join(root, 'lib/wire/wire.ts'), new Date(0), new Date(0));
    expect(inputState(root, HALVES.proxy).hash).toBe(first);
    write('lib/wire/wire.ts', 'export const a = 2;\n');
    expect(inputState(root, HALVES.proxy).hash).not.toBe(first);
    write('lib/wire/wire.ts', 'export const a = 1;\n');
    expect(inputState(root, HALVES.proxy).hash).toBe(first);
    rmSync(join(root, 'lib/wire/wire.ts'));
    write('lib/moved.ts', 'export const a = 1;\n');
    expect(inputState(root, HALVES.proxy).hash).not.toBe(first);
  });

  it('takes only what the half is built from', () => {
    const proxy = inputState(root, HALVES.proxy).hash;
    write('proxy/NOTES.md', 'not compiled');
    write('proxy/cli.test.ts', 'a test, left out of dist/ by tsconfig.proxy.json');
    write('app/page.tsx', 'export default 1;');
    expect(inputState(root, HALVES.proxy).hash).toBe(proxy);
    const ui = inputState(root, HALVES.ui).hash;
    write('app/globals.css', 'body {}');
    expect(inputState(root, HALVES.ui).hash).not.toBe(ui);
    const beforeEnv = inputState(root, HALVES.ui).hash;
    write('.env', 'NEXT_PUBLIC_X=1');
    expect(inputState(root, HALVES.ui).hash, 'a file that appears counts').not.toBe(beforeEnv);
  });
});

describe('ensureBuilt', () => {
  it('builds once, skips while nothing changed, and rebuilds naming the changed source', async () => {
    const half = fakeProxy();
    expect((await build(half)).code).toBe(0);
    expect(half.runs).toBe(1);
    const again = await build(half);
    expect(again.lines).toEqual(['build: proxy is up to date (dist/proxy, dist/lib)']);
    expect(half.runs).toBe(1);
    write('proxy/cli.ts', 'console.log(2);\n');
    const changed = await build(half);
    expect(changed.lines[0]).toBe('build: proxy: changed since the last build: proxy/cli.ts; building');
    expect(half.runs).toBe(2);
  });

  it('rebuilds when the output was changed or removed by something else, or when forced', async () => {
    const half = fakeProxy();
    await build(half);
    write('dist/lib/stray.js', 'from a bare tsc');
    expect((await build(half)).lines[0]).toBe('build: proxy: its output was changed by another command; building');
    rmSync(join(root, 'dist/proxy/cli.js'));
    expect((await build(half)).lines[0]).toBe('build: proxy: dist/proxy/cli.js is missing; building');
    expect((await build(half, { force: true })).lines[0]).toBe('build: proxy: forced; building');
    expect(half.runs).toBe(4);
  });

  it('passes a failure on and leaves no stamp, so the next run builds again', async () => {
    let exit = 0;
    const half = fakeProxy(() => exit);
    await build(half);
    write('lib/wire/wire.ts', 'broken');
    exit = 2;
    const failed = await build(half);
    expect(failed.code).toBe(2);
    expect(existsSync(join(root, half.stamp))).toBe(false);
    exit = 0;
    expect((await build(half)).lines[0]).toBe('build: proxy: no build stamp yet; building');
    expect(half.runs).toBe(3);
  });
});

describe('the command line', () => {
  it('names halves, forces, and refuses anything else', () => {
    expect(parseArgs([])).toEqual({ ok: true, names: ['proxy', 'ui'], force: false });
    expect(parseArgs(['--force', 'ui'])).toEqual({ ok: true, names: ['ui'], force: true });
    expect(parseArgs(['toString']).ok).toBe(false);
  });
});

describe('Next telemetry', () => {
  // Next's own class, constructed in a child as `next build` does; CI=1 keeps its config store in the
  // temporary distDir (storage.js puts it there for CI), so this never touches the user's config.
  const ask = (env) => {
    const script = `const { Telemetry } = require(${JSON.stringify(require.resolve('next/dist/telemetry/storage.js'))});
      const t = new Telemetry({ distDir: process.argv[1] }); console.log('disabled=' + t.isDisabled);`;
    return execFileSync(process.execPath, ['-e', script, join(root, '.next')], { env: { ...env, CI: '1' }, encoding: 'utf8' });
  };
  const withoutSwitch = () => {
    const env = { ...process.env };
    delete env.NEXT_TELEMETRY_DISABLED;
    return env;
  };

  it('is off in the environment the project gives next, and the notice is not printed', () => {
    const off = ask(nextEnv(withoutSwitch()));
    expect(off).toBe('disabled=true\n');
    rmSync(join(root, '.next'), { recursive: true, force: true });
    const on = ask(withoutSwitch()); // the control: the same call without the variable
    expect(on).toContain('Next.js now collects completely anonymous telemetry');
    expect(on).toContain('disabled=false');
  });
});
