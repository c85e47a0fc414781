import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isWatched, planWatch, scriptOf, watchFiles, type WatchPlan } from './watch.ts';

const dirs: string[] = [];
function project(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'loupe-watch-'));
  dirs.push(dir);
  mkdirSync(path.join(dir, 'src'));
  mkdirSync(path.join(dir, 'build'));
  mkdirSync(path.join(dir, 'node_modules'));
  writeFileSync(path.join(dir, 'src', 'index.ts'), 'export {};\n');
  writeFileSync(path.join(dir, 'build', 'index.js'), 'export {};\n');
  writeFileSync(path.join(dir, 'server.py'), 'print(1)\n');
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('what --watch watches', () => {
  it('finds the script a command runs, past interpreter options', () => {
    const dir = project();
    expect(scriptOf('node', ['--inspect', 'build/index.js', '--port', '3'], dir)).toBe(path.join(dir, 'build', 'index.js'));
    expect(scriptOf('uv', ['run', 'server.py'], dir)).toBe(path.join(dir, 'server.py'));
    expect(scriptOf('my-server', ['build/index.js'], dir)).toBeUndefined();
    // node given by its path is still the interpreter, not the script.
    expect(scriptOf(process.execPath, ['build/index.js'], dir)).toBe(path.join(dir, 'build', 'index.js'));
    expect(scriptOf('./build/index.js', [], dir, () => true)).toBe(path.join(dir, 'build', 'index.js'));
  });

  it('watches the script’s folder, the build output included when the script is in it', () => {
    const dir = project();
    const plan = planWatch({ paths: [], command: 'node', args: ['build/index.js'], cwd: dir }) as WatchPlan;
    expect(plan.roots).toEqual([path.join(dir, 'build')]);
    expect(plan.ignored).toContain('node_modules');
    expect(plan.ignored).not.toContain('build');
    expect(plan.said).toBe('build/ (the script’s folder)');
  });

  it('leaves build outputs out of a project folder, and says when a given path does not exist', () => {
    const dir = project();
    const plan = planWatch({ paths: [], command: 'python', args: ['server.py'], cwd: dir }) as WatchPlan;
    expect(plan.roots).toEqual([dir]);
    expect(isWatched('build/index.js', plan.ignored)).toBe(false);
    expect(isWatched('node_modules/x/index.js', plan.ignored)).toBe(false);
    expect(isWatched('src/index.ts', plan.ignored)).toBe(true);
    expect(isWatched('src/.index.ts.swp', plan.ignored)).toBe(false);
    expect(planWatch({ paths: ['nope'], command: 'node', args: [], cwd: dir })).toEqual({ error: `--watch: no such file or folder: ${path.join(dir, 'nope')}` });
  });
});

describe('watchFiles', () => {
  it('says once, after the saving settles, which files changed, and not what is ignored', async () => {
    const dir = project();
    const plan = planWatch({ paths: [], command: 'python', args: ['server.py'], cwd: dir }) as WatchPlan;
    const seen: string[][] = [];
    const watching = watchFiles(plan, { cwd: dir, debounceMs: 100, onChange: (files) => seen.push(files) });
    try {
      await new Promise((r) => setTimeout(r, 50));
      writeFileSync(path.join(dir, 'node_modules', 'dep.js'), 'x');
      writeFileSync(path.join(dir, 'src', 'index.ts'), 'export const a = 1;\n');
      writeFileSync(path.join(dir, 'server.py'), 'print(2)\n');
      writeFileSync(path.join(dir, 'src', 'index.ts'), 'export const a = 2;\n');
      for (let i = 0; i < 40 && seen.length === 0; i++) await new Promise((r) => setTimeout(r, 50));
      await new Promise((r) => setTimeout(r, 200));
      expect(seen).toEqual([['server.py', path.join('src', 'index.ts')]]);
    } finally {
      watching.close();
    }
  });

  it('watches one file through its folder, so a save that replaces the file is still seen', async () => {
    const dir = project();
    const file = path.join(dir, 'server.py');
    const plan = planWatch({ paths: ['server.py'], command: 'python', args: ['server.py'], cwd: dir }) as WatchPlan;
    const seen: string[][] = [];
    const watching = watchFiles(plan, { cwd: dir, debounceMs: 50, onChange: (files) => seen.push(files) });
    try {
      await new Promise((r) => setTimeout(r, 50));
      writeFileSync(path.join(dir, 'other.py'), 'x');
      writeFileSync(`${file}.new`, 'print(3)\n');
      rmSync(file);
      writeFileSync(file, 'print(3)\n');
      for (let i = 0; i < 40 && seen.length === 0; i++) await new Promise((r) => setTimeout(r, 50));
      expect(seen[0]).toEqual(['server.py']);
      seen.length = 0;
      writeFileSync(file, 'print(4)\n');
      for (let i = 0; i < 40 && seen.length === 0; i++) await new Promise((r) => setTimeout(r, 50));
      expect(seen[0]).toEqual(['server.py']);
    } finally {
      watching.close();
    }
  });
});

describe('names of what changed', () => {
  it('are relative to the working directory inside it, and to the watched folder outside it', async () => {
    const dir = project();
    const elsewhere = mkdtempSync(path.join(tmpdir(), 'loupe-watch-cwd-'));
    dirs.push(elsewhere);
    const plan = planWatch({ paths: [], command: 'node', args: [path.join(dir, 'build', 'index.js')], cwd: elsewhere }) as WatchPlan;
    expect(plan.said).toBe(`${path.join(dir, 'build')}/ (the script’s folder)`);
    const seen: string[][] = [];
    const watching = watchFiles(plan, { cwd: elsewhere, debounceMs: 50, onChange: (files) => seen.push(files) });
    try {
      await new Promise((r) => setTimeout(r, 50));
      writeFileSync(path.join(dir, 'build', 'index.js'), 'export const b = 1;\n');
      for (let i = 0; i < 40 && seen.length === 0; i++) await new Promise((r) => setTimeout(r, 50));
      expect(seen[0]).toEqual(['index.js']);
    } finally {
      watching.close();
    }
  });
});
