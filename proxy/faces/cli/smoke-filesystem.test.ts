/**
 * `--smoke` leaves the user's data alone (issue 21, item 8), through the built CLI (a current
 * build first) against the real server-filesystem on a scratch folder: by default no tool that
 * may change data is called, the folder is byte for byte what it was, a refusal of made-up
 * arguments is no failure, and the process exits 0 on its own. With --allow-writes the write
 * tools are called, and a second scratch folder shows it.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runBuiltCli, stopChild } from '../../testing/children.ts';

const ROOT = resolve(import.meta.dirname, '../../..');
const FILESYSTEM = [process.execPath, join(ROOT, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js')];
/** Smoke of 14 tools takes seconds; a run still going after this long hangs. */
const HANG_BOUND_MS = 45_000;
const WRITE_TOOLS = ['write_file', 'edit_file', 'move_file', 'create_directory'];

const children: ChildProcess[] = [];
const scratch: string[] = [];
afterAll(async () => {
  await Promise.all(children.map(stopChild));
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

/** A folder holding a known file and a subfolder with another. */
function scratchFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'loupe-smoke-fs-'));
  scratch.push(dir);
  writeFileSync(join(dir, 'notes.txt'), 'hello\nsecond line\n');
  mkdirSync(join(dir, 'sub'));
  writeFileSync(join(dir, 'sub', 'keep.bin'), Buffer.from([0, 1, 2, 255]));
  return dir;
}

/** Every entry under `dir`, with each file's bytes (as hex, so that a diff shows them). */
function contents(dir: string): Record<string, string> {
  const found: Record<string, string> = {};
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name);
    found[path.slice(dir.length + 1)] = entry.isDirectory() ? '(folder)' : readFileSync(path).toString('hex');
  }
  return found;
}

async function smoke(args: string[]) {
  const started = performance.now();
  const run = await runBuiltCli(['--smoke', ...args], children);
  return { ...run, ms: performance.now() - started };
}

const row = (stdout: string, tool: string) => stdout.split('\n').find((line) => line.startsWith(`${tool} `)) ?? `(no row for ${tool})`;

describe('--smoke against server-filesystem', () => {
  it('by default calls no tool that may change data: the folder is unchanged, the write tools are skipped with why, and it exits 0', async () => {
    const dir = scratchFolder();
    const before = contents(dir);
    const out = await smoke([...FILESYSTEM, dir]);
    expect(out.ms).toBeLessThan(HANG_BOUND_MS);
    expect(out.stderr).toBe('');
    expect(out.code).toBe(0);
    expect(contents(dir)).toEqual(before);
    for (const tool of ['write_file', 'edit_file', 'move_file']) {
      expect(row(out.stdout, tool)).toMatch(/^\S+\s+skipped\s+\d+\s+Not called: it says it may change data \(readOnlyHint: false\), destructively \(destructiveHint: true\)\. --allow-writes calls it too\.$/);
    }
    expect(row(out.stdout, 'create_directory')).toMatch(/skipped\s+\d+\s+Not called: it says it may change data \(readOnlyHint: false\), though not destructively\. --allow-writes calls it too\.$/);
    // A made-up path answered with isError is a refusal, not a failure.
    expect(out.stdout).not.toMatch(/FAILED/);
    expect(row(out.stdout, 'read_text_file')).toMatch(/^read_text_file\s+passed\s+\d+\s+All 3 cases passed \(valid arguments: Refused the made-up arguments with isError/);
    expect(out.stdout).toContain('\n4 of 14 tools not called: they may change data (no readOnlyHint: true); add --allow-writes to call them with made-up arguments too.\n14 tools: 10 passed, 0 failed, 0 warnings, 4 skipped\n');
  }, 120_000);

  it('with --allow-writes calls the write tools too, which change the folder', async () => {
    const dir = scratchFolder();
    const before = contents(dir);
    const out = await smoke(['--allow-writes', ...FILESYSTEM, dir]);
    expect(out.ms).toBeLessThan(HANG_BOUND_MS);
    expect(out.code).toBe(0);
    expect(out.stdout.split('\n')[0]).toMatch(/, tools that may change data called too$/);
    for (const tool of WRITE_TOOLS) expect(row(out.stdout, tool)).toMatch(/^\S+\s+passed\s/);
    expect(out.stdout).not.toContain('not called');
    expect(contents(dir)).not.toEqual(before);
  }, 120_000);
});
